/**
 * Finding oldText that the model could not type byte for byte: the same visible text in another
 * Unicode normal form (NFD from macOS against the model's NFC), or with characters it cannot see
 * (zero-width space, soft hyphen, no-break space for a space). Both sides are folded (NFC, invisible
 * characters dropped, space-like characters as a space) one grapheme-ish segment (a base and its
 * combining marks, a Hangul jamo run) at a time, so a match maps back to whole characters of the
 * file's own bytes.
 * @module
 */

/** One match of the folded oldText in the folded file. */
export interface FoldedMatch {
  /** Byte offsets in the searched text (a latin1 byte string) of the matched characters. */
  start: number;
  end: number;
  /** The file's text there. */
  original: string;
  /** `true` when it equals oldText after NFC alone (no invisible or space-like character differs). */
  onlyNormalization: boolean;
}

// A base character and the marks (and Hangul vowel / final jamo) that compose with it.
const segmentPattern = /[^\p{M}\u1160-\u11ff][\p{M}\u1160-\u11ff]*|[\p{M}\u1160-\u11ff]+/gsu;
const invisible = /[\u200b-\u200d\u2060\ufeff\u00ad]/g;
const spaceLike = /[\u00a0\u2000-\u200a\u202f\u205f]/g;

// Runs of well-formed-looking UTF-8 sequences, or one other byte (latin1 string of the bytes).
const utf8Runs =
  /(?:[\x00-\x7f]|[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3})+|[\s\S]/g;
/** Stands for a byte that is not UTF-8: a noncharacter no oldText holds. */
const notText = '\uffff';

function fold(segment: string): string {
  return segment.normalize('NFC').replace(invisible, '').replace(spaceLike, ' ');
}

function segments(text: string): string[] {
  return text.match(segmentPattern) ?? [];
}

/** `text` folded (see the module doc). */
export function foldText(text: string): string {
  return segments(text).map(fold).join('');
}

/**
 * The matches of `needle` in `byteText` (a latin1 string of the file's bytes) after folding, or
 * `undefined` when the needle folds to nothing. Bytes that are not UTF-8 never match.
 */
export function findFolded(byteText: string, needle: string): FoldedMatch[] | undefined {
  const wanted = foldText(needle);
  if (wanted === '') return undefined;
  const parts: string[] = [];
  const startByte: number[] = [];
  const firstChar: number[] = [];
  const owner: number[] = [];
  let folded = '';
  let byte = 0;
  const push = (part: string, bytes: number, piece: string) => {
    startByte.push(byte);
    byte += bytes;
    firstChar.push(folded.length);
    for (let i = 0; i < piece.length; i++) owner.push(parts.length);
    parts.push(part);
    folded += piece;
  };
  for (const run of byteText.match(utf8Runs) ?? []) {
    const text = Buffer.from(run, 'latin1').toString('utf8');
    if (Buffer.byteLength(text) !== run.length) {
      // not valid UTF-8 (an overlong form, a surrogate, a stray byte): one unmatchable char per byte
      for (let i = 0; i < run.length; i++) push(notText, 1, notText);
      continue;
    }
    for (const part of segments(text)) push(part, Buffer.byteLength(part), fold(part));
  }
  startByte.push(byte);
  firstChar.push(folded.length);
  const matches: FoldedMatch[] = [];
  for (let at = folded.indexOf(wanted); at !== -1; at = folded.indexOf(wanted, at + 1)) {
    const first = owner[at]!;
    const last = owner[at + wanted.length - 1]!;
    if (firstChar[first] !== at || firstChar[last + 1] !== at + wanted.length) continue; // cuts a character
    const original = parts.slice(first, last + 1).join('');
    matches.push({
      start: startByte[first]!,
      end: startByte[last + 1]!,
      original,
      onlyNormalization: original.normalize('NFC') === needle.normalize('NFC'),
    });
  }
  return matches;
}

/**
 * The characters that differ between the file's `original` and `oldText`, as code points
 * (`U+0065 U+0301`), at most `limit` of each side.
 */
export function describeDifferences(original: string, oldText: string, limit = 4): string {
  const odd = (text: string) =>
    [...new Set(segments(text).filter((part) => part !== fold(part) || part !== part.normalize('NFC')))]
      .slice(0, limit)
      .map((part) =>
        [...part].map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`).join(' '),
      );
  const inFile = odd(original);
  const inOld = odd(oldText);
  return [
    inFile.length > 0 ? `the file has ${inFile.join(', ')}` : '',
    inOld.length > 0 ? `oldText has ${inOld.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
}
