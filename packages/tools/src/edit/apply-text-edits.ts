/**
 * The matching and replacing behind edit_file, on bytes: the file is handled as a latin1 string
 * (one char per byte), so every byte outside the matched spans is written back exactly (tabs,
 * curly quotes, invalid UTF-8, BOM), and `$` in newText means `$`. Matching treats `\r\n` and `\n`
 * alike; replacements take the file's own line ending. All edits are checked against the ORIGINAL
 * content before anything changes: each must match exactly once (or use replaceAll) and no two
 * may overlap, else a ToolError says which edit failed and why.
 * @module
 */
import { SandkitErrorCode, ToolError } from '@sandkit/core';
import { describeDifferences, type FoldedMatch, findFolded } from './folded-match.js';

/** One exact replacement. */
export interface TextEdit {
  oldText: string;
  newText: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replaceAll?: boolean | undefined;
}

/** The result of {@link applyTextEdits}. */
export interface AppliedTextEdits {
  bytes: Uint8Array;
  /** Spans replaced, over all edits. */
  replacements: number;
  /** 1-based line of the first byte that differs, in the new content. */
  firstChangedLine: number;
  /** The file's line ending before the edit (`mixed`: each replacement took the ending of the lines it replaced). */
  lineEnding: 'lf' | 'crlf' | 'mixed' | null;
  /** What the model should know about how edits matched (for example after Unicode normalization). */
  notices: string[];
}

const maxLinesListed = 10;

/**
 * Applies `edits` to `original` (all or none).
 * @throws ToolError `empty_old_text`, `no_op`, `no_match`, `not_unique` or `overlapping_edits`,
 *   each naming the edit (1-based) and what to change.
 */
export function applyTextEdits(original: Uint8Array, edits: readonly TextEdit[]): AppliedTextEdits {
  const view = normalizedView(original);
  const spans: { edit: number; start: number; end: number; replacement: string }[] = [];
  const notices: string[] = [];
  edits.forEach((edit, index) => {
    const label = `edit ${index + 1}`;
    // A lone BOM is empty once stripped: matching '' would loop forever.
    if (stripBom(edit.oldText) === '') {
      throw new ToolError({
        code: SandkitErrorCode.emptyOldText,
        message: `${label}: oldText is empty${edit.oldText === '' ? '' : ' (a byte-order mark alone matches nothing)'}; give the exact text to replace (to create or overwrite a whole file use write_file)`,
        details: { edit: index + 1 },
      });
    }
    if (edit.oldText === edit.newText) {
      throw new ToolError({
        code: SandkitErrorCode.noOp,
        message: `${label}: oldText and newText are identical, so it changes nothing; drop it or change newText`,
        details: { edit: index + 1 },
      });
    }
    const needle = toByteString(stripBom(edit.oldText).replaceAll('\r\n', '\n'));
    const found = occurrences(view.text, needle, edit.replaceAll === true);
    if (found.length === 0) {
      const folded = foldedSpans(label, index, edit, view);
      for (const span of folded.spans) spans.push(span);
      notices.push(folded.notice);
      return;
    }
    if (found.length > 1 && !edit.replaceAll) {
      const lines = found.slice(0, maxLinesListed).map((at) => lineOf(view.text, at));
      const more = found.length > maxLinesListed ? ', …' : '';
      throw new ToolError({
        code: SandkitErrorCode.notUnique,
        message: `${label}: oldText occurs ${found.length} times (lines ${lines.join(', ')}${more}); add surrounding lines to make it unique, or set replaceAll: true to replace every one. Nothing was changed.`,
        details: { edit: index + 1, occurrences: found.length, lines },
      });
    }
    const newText = toByteString(
      edit.oldText.startsWith('\uFEFF') ? stripBom(edit.newText) : edit.newText,
    ).replaceAll('\r\n', '\n');
    const exact = found.map((at) => ({
      edit: index,
      start: at,
      end: at + needle.length,
      replacement: newText,
    }));
    spans.push(...exact);
    if (edit.replaceAll) {
      const alike = lookAlikeSpans(label, index, edit, view, exact);
      spans.push(...alike.spans);
      if (alike.notice) notices.push(alike.notice);
    }
  });
  spans.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < spans.length; i++) {
    const [before, after] = [spans[i - 1]!, spans[i]!];
    if (after.start < before.end) {
      const [first, second] = [Math.min(before.edit, after.edit) + 1, Math.max(before.edit, after.edit) + 1];
      throw new ToolError({
        code: SandkitErrorCode.overlappingEdits,
        message: `edits ${first} and ${second} overlap (both touch line ${lineOf(view.text, after.start)}); merge them into one edit. Nothing was changed.`,
        details: { edits: [first, second] },
      });
    }
  }
  const source = view.source;
  const parts: string[] = [];
  let cursor = 0;
  for (const span of spans) {
    const start = view.originalIndex(span.start);
    const end = view.originalIndex(span.end);
    parts.push(
      source.slice(cursor, start),
      withLineEnding(span.replacement, lineEndingAt(source, start, end, view.ending)),
    );
    cursor = end;
  }
  parts.push(source.slice(cursor));
  const bytes = Buffer.from(parts.join(''), 'latin1');
  const firstDiff = firstDifference(original, bytes);
  if (firstDiff === -1) {
    throw new ToolError({
      code: SandkitErrorCode.noOp,
      message:
        'the edits change nothing (after matching line endings the new bytes equal the old ones); nothing was written',
      details: {},
    });
  }
  return {
    bytes,
    replacements: spans.length,
    firstChangedLine: countByte(bytes, 0x0a, firstDiff) + 1,
    lineEnding: view.ending,
    notices,
  };
}

interface NormalizedView {
  /** Latin1 string of the original bytes. */
  source: string;
  /** The text after the BOM with every `\r\n` as `\n`. */
  text: string;
  /** The file's line ending. */
  ending: 'lf' | 'crlf' | 'mixed' | null;
  /** Index in `source` where char `index` of `text` starts (a CRLF's `\n` starts at its `\r`). */
  originalIndex(index: number): number;
}

function normalizedView(original: Uint8Array): NormalizedView {
  const source = Buffer.from(original).toString('latin1');
  const bom = source.startsWith('\xef\xbb\xbf') ? 3 : 0;
  const body = source.slice(bom);
  const removed: number[] = []; // text index of each `\n` that lost its `\r`
  for (let i = body.indexOf('\r\n'); i !== -1; i = body.indexOf('\r\n', i + 2))
    removed.push(i - removed.length);
  const lf = countByte(original, 0x0a, original.length) - removed.length;
  const ending = removed.length === 0 ? (lf === 0 ? null : 'lf') : lf === 0 ? 'crlf' : 'mixed';
  return {
    source,
    text: removed.length === 0 ? body : body.replaceAll('\r\n', '\n'),
    ending,
    originalIndex: (index) => bom + index + countBelow(removed, index),
  };
}

/** How many sorted `values` are `< limit`. */
function countBelow(values: readonly number[], limit: number): number {
  let [low, high] = [0, values.length];
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (values[mid]! < limit) low = mid + 1;
    else high = mid;
  }
  return low;
}

function occurrences(text: string, needle: string, replaceAll: boolean): number[] {
  const found: number[] = [];
  // Overlapping occurrences count for uniqueness; replaceAll takes them left to right.
  const step = replaceAll ? needle.length : 1;
  for (let i = text.indexOf(needle); i !== -1; ) {
    if (continuesCharacter(text, i + needle.length)) {
      i = text.indexOf(needle, i + 1);
      continue;
    }
    found.push(i);
    i = text.indexOf(needle, i + step);
  }
  return found;
}

// A combining mark, or a Hangul vowel / final jamo: it composes with the character before it.
// Variation selectors (an emoji's U+FE0F) are marks too but are left out: a model often drops them.
const composing = /^(?![\ufe00-\ufe0f\u{e0100}-\u{e01ef}])[\p{M}\u1160-\u11ff]/u;

/**
 * `true` when the character starting at byte `at` of `text` (a latin1 byte string) composes with
 * the one before: a match ending there would cut `é` (e + U+0301) after its `e`, and the mark
 * would land on newText. Such a match is not taken (the folded lookup sees whole characters).
 */
function continuesCharacter(text: string, at: number): boolean {
  const lead = text.charCodeAt(at);
  if (!(lead >= 0xcc && lead <= 0xf4)) return false; // no mark is below U+0300 (UTF-8 cc 80)
  return composing.test(Buffer.from(text.slice(at, at + 4), 'latin1').toString('utf8'));
}

/** The ending to write in a replacement: the file's, or for a mixed file the span's own / its line's. */
function lineEndingAt(
  source: string,
  start: number,
  end: number,
  ending: NormalizedView['ending'],
): 'lf' | 'crlf' {
  if (ending !== 'mixed') return ending === 'crlf' ? 'crlf' : 'lf';
  const span = source.slice(start, end);
  const crlf = span.split('\r\n').length - 1;
  const lf = span.split('\n').length - 1 - crlf;
  if (crlf > 0 && lf === 0) return 'crlf';
  if (lf > 0 && crlf === 0) return 'lf';
  const next = source.indexOf('\n', end);
  return next > 0 && source[next - 1] === '\r' ? 'crlf' : 'lf';
}

function withLineEnding(text: string, ending: 'lf' | 'crlf'): string {
  return ending === 'crlf' ? text.replaceAll('\n', '\r\n') : text;
}

/**
 * The spans of an edit whose oldText matched only after folding (folded-match.ts): applied when
 * the only difference is Unicode normalization (newText then takes the matched text's form);
 * otherwise a `no_match` error saying where and which code points differ.
 */
function foldedSpans(
  label: string,
  index: number,
  edit: TextEdit,
  view: NormalizedView,
): { spans: { edit: number; start: number; end: number; replacement: string }[]; notice: string } {
  const oldText = stripBom(edit.oldText).replaceAll('\r\n', '\n');
  const matches = findFolded(view.text, oldText) ?? [];
  if (matches.length === 0) throw noMatch(label, index, edit.oldText, view);
  const where = (match: FoldedMatch) => `line ${lineOf(view.text, match.start)}`;
  const first = matches[0]!;
  const differences = describeDifferences(first.original, oldText);
  if (!matches.every((match) => match.onlyNormalization)) {
    throw new ToolError({
      code: SandkitErrorCode.noMatch,
      message: `${label}: oldText was not found byte for byte, but matches at ${where(first)} if invisible or space-like characters are ignored: ${differences}. Write those characters into oldText as JSON escapes (for example "\\u00a0") exactly as the file has them. Nothing was changed.`,
      details: { edit: index + 1, line: lineOf(view.text, first.start) },
    });
  }
  if (matches.length > 1 && !edit.replaceAll) {
    const lines = matches.slice(0, maxLinesListed).map((match) => lineOf(view.text, match.start));
    throw new ToolError({
      code: SandkitErrorCode.notUnique,
      message: `${label}: oldText matches ${matches.length} times after Unicode normalization (lines ${lines.join(', ')}); add surrounding lines to make it unique, or set replaceAll: true. Nothing was changed.`,
      details: { edit: index + 1, occurrences: matches.length, lines },
    });
  }
  const spans = matches.map((match) => ({
    edit: index,
    start: match.start,
    end: match.end,
    replacement: formedReplacement(match, edit),
  }));
  const form =
    first.original === first.original.normalize('NFD')
      ? ' (NFD); newText was written in NFD too'
      : first.original === first.original.normalize('NFC') && edit.newText !== edit.newText.normalize('NFC')
        ? ' (NFC); newText was written in NFC too'
        : '';
  return {
    spans,
    notice: `${label}: oldText matched at ${matches.map(where).join(', ')} only after Unicode normalization: ${differences}${form}`,
  };
}

/** newText as the bytes to write in place of a folded `match`: in NFD when the match is, in NFC when it is. */
function formedReplacement(match: FoldedMatch, edit: TextEdit): string {
  const nfd = match.original === match.original.normalize('NFD');
  const nfc = !nfd && match.original === match.original.normalize('NFC');
  const newText = edit.oldText.startsWith('\uFEFF') ? stripBom(edit.newText) : edit.newText;
  return toByteString(nfd ? newText.normalize('NFD') : nfc ? newText.normalize('NFC') : newText).replaceAll(
    '\r\n',
    '\n',
  );
}

/**
 * With replaceAll, the occurrences the byte search missed because they are written in another
 * normal form than oldText (a file mixing NFC and NFD), outside the `taken` exact spans; and the
 * notice naming them. Only for a non-ASCII oldText (an ASCII one has no other form).
 */
function lookAlikeSpans(
  label: string,
  index: number,
  edit: TextEdit,
  view: NormalizedView,
  taken: readonly { start: number; end: number }[],
): { spans: { edit: number; start: number; end: number; replacement: string }[]; notice?: string } {
  const oldText = stripBom(edit.oldText).replaceAll('\r\n', '\n');
  if (!/[^\x00-\x7f]/.test(oldText)) return { spans: [] };
  const found: FoldedMatch[] = [];
  for (const match of findFolded(view.text, oldText) ?? []) {
    if (!match.onlyNormalization || match.start < (found.at(-1)?.end ?? 0)) continue;
    if (taken.some((span) => match.start < span.end && span.start < match.end)) continue;
    found.push(match);
  }
  if (found.length === 0) return { spans: [] };
  const lines = found.slice(0, maxLinesListed).map((match) => `line ${lineOf(view.text, match.start)}`);
  return {
    spans: found.map((match) => ({
      edit: index,
      start: match.start,
      end: match.end,
      replacement: formedReplacement(match, edit),
    })),
    notice: `${label}: replaceAll also replaced ${found.length} look-alike${found.length === 1 ? '' : 's'} written in another Unicode normal form (${lines.join(', ')}: ${describeDifferences(found[0]!.original, oldText)}), each with newText in its own form`,
  };
}

function noMatch(label: string, index: number, oldText: string, view: NormalizedView): ToolError {
  let hint =
    'read the file again with read_file and copy the text exactly (whitespace, tabs and quotes included), without the line-number prefixes';
  if (oldText.includes('\uFFFD') && !view.source.includes(toByteString('\uFFFD'))) {
    hint =
      'oldText contains U+FFFD, which read_file shows for bytes that are not valid UTF-8; those bytes cannot be matched: choose oldText that leaves them out';
  } else {
    const similar = similarLines(view.text, oldText);
    if (similar.length > 0)
      hint = `line ${similar.join(', ')} looks similar but differs in whitespace or characters; ${hint}`;
  }
  return new ToolError({
    code: SandkitErrorCode.noMatch,
    message: `${label}: oldText was not found in the file; ${hint}. Nothing was changed.`,
    details: { edit: index + 1 },
  });
}

/** Lines whose whitespace-squashed form contains the first non-blank line of `oldText`. */
function similarLines(text: string, oldText: string): number[] {
  const squash = (s: string) => s.replace(/[ \t\u00a0]+/g, ' ').trim();
  const probe = squash(toByteString(oldText.split('\n').find((l) => l.trim() !== '') ?? ''));
  if (probe.length < 3) return [];
  const lines: number[] = [];
  text.split('\n').forEach((line, i) => {
    if (lines.length < 3 && squash(line).includes(probe)) lines.push(i + 1);
  });
  return lines;
}

/** A JS string as the latin1 string of its UTF-8 bytes. */
function toByteString(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}

function stripBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function countByte(bytes: Uint8Array, byte: number, end: number): number {
  let count = 0;
  for (let i = bytes.indexOf(byte); i !== -1 && i < end; i = bytes.indexOf(byte, i + 1)) count++;
  return count;
}

function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : length;
}
