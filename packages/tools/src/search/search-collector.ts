/**
 * Groups a search program's record stream (per file: lines in order, as rg and grep print them)
 * into matches with their context, file lists or per-file counts, and orders them like
 * `rg --sort path` (path compared component by component, bytewise).
 * @module
 */
import type { SearchRecord } from './parse-rg-json.js';

/** One matching line with up to `context` lines around it. */
export interface SearchMatch {
  path: string;
  line: number;
  text: string;
  before?: string[];
  after?: string[];
}

/** One unit of a result page: a match (content mode) or a file (the other modes). */
export type SearchUnit =
  | { kind: 'match'; match: SearchMatch }
  | { kind: 'file'; path: string; count: number };

/** Longest line text kept, in UTF-16 code units; longer lines are clipped with a marker. */
export const maxLineChars = 500;

/** Collects records into units. */
export class SearchCollector {
  readonly units: SearchUnit[] = [];
  private path: string | undefined;
  private pending: { line: number; text: string }[] = [];
  private last: SearchMatch | undefined;
  private file: { kind: 'file'; path: string; count: number } | undefined;

  /**
   * @param mode `content` keeps matches, `files_with_matches` and `count` keep one unit per file
   * @param context lines of context requested (0–10)
   */
  constructor(
    private readonly mode: 'content' | 'files_with_matches' | 'count',
    private readonly context: number,
  ) {}

  /** Adds one record (records of one file must come together, in line order). */
  add(record: SearchRecord): void {
    if (record.path !== this.path) {
      this.path = record.path;
      this.pending = [];
      this.last = undefined;
      this.file = undefined;
    }
    const text = clipLine(record.text.endsWith('\r') ? record.text.slice(0, -1) : record.text);
    if (record.kind === 'context') {
      if (this.mode !== 'content') return;
      if (this.last && record.line <= this.last.line + this.context) {
        this.last.after ??= [];
        this.last.after.push(text);
      }
      this.pending.push({ line: record.line, text });
      if (this.pending.length > this.context) this.pending.shift();
      return;
    }
    if (this.mode !== 'content') {
      if (!this.file) {
        this.file = { kind: 'file', path: record.path, count: 0 };
        this.units.push(this.file);
      }
      this.file.count++;
      return;
    }
    const match: SearchMatch = { path: record.path, line: record.line, text };
    const before = this.pending.filter(
      (entry) => entry.line >= record.line - this.context && entry.line < record.line,
    );
    if (before.length > 0) match.before = before.map((entry) => entry.text);
    this.pending = [];
    this.last = match;
    this.units.push({ kind: 'match', match });
  }
}

/** Clips a line to {@link maxLineChars} with a marker giving its full length. */
export function clipLine(text: string): string {
  if (text.length <= maxLineChars) return text;
  return `${text.slice(0, maxLineChars)}… [line clipped: ${text.length} chars]`;
}

/** Sorts units in place like `rg --sort path`, keeping the line order within a file. */
export function sortUnits(units: SearchUnit[]): SearchUnit[] {
  const keyed = units.map((unit, index) => ({ unit, index, parts: unitPath(unit).split('/') }));
  keyed.sort((a, b) => comparePathParts(a.parts, b.parts) || a.index - b.index);
  return keyed.map((entry) => entry.unit);
}

/** The path of a unit. */
export function unitPath(unit: SearchUnit): string {
  return unit.kind === 'match' ? unit.match.path : unit.path;
}

function comparePathParts(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x !== y) return Buffer.compare(Buffer.from(x), Buffer.from(y));
  }
  return a.length - b.length;
}
