import type { SearchUnit } from './search-collector.js';
import type { SearchFilesOutput } from './search-files-schema.js';

/** Options of {@link page}. */
export interface PageOptions {
  offset: number;
  maxMatches: number;
  mode: 'content' | 'files_with_matches' | 'count';
  engine: 'rg' | 'grep';
  /** `true` when `units` is every result; `false` when more exist past the last one. */
  complete: boolean;
  maxOutputBytes: number;
  warnings: string[];
}

/**
 * Cuts one page out of the ordered units, within `maxMatches` and `maxOutputBytes` (at least one
 * unit, so a single huge match still comes back); `truncated`/`nextOffset` say where to go on.
 */
export function page(units: readonly SearchUnit[], options: PageOptions): SearchFilesOutput {
  const budget = options.maxOutputBytes - 512;
  const kept: SearchUnit[] = [];
  let bytes = 0;
  for (const unit of units.slice(options.offset, options.offset + options.maxMatches)) {
    const size = Buffer.byteLength(JSON.stringify(unit.kind === 'match' ? unit.match : unit));
    if (kept.length > 0 && bytes + size > budget) break;
    kept.push(unit);
    bytes += size;
  }
  const end = options.offset + kept.length;
  const truncated = end < units.length || !options.complete;
  const matches = kept.flatMap((unit) => (unit.kind === 'match' ? [unit.match] : []));
  const files = kept.flatMap((unit) => (unit.kind === 'file' ? [unit] : []));
  return {
    matches,
    ...(options.mode === 'files_with_matches' ? { files: files.map((file) => file.path) } : {}),
    ...(options.mode === 'count'
      ? { counts: files.map((file) => ({ path: file.path, count: file.count })) }
      : {}),
    truncated,
    ...(truncated ? { nextOffset: end } : {}),
    engine: options.engine,
    ...(options.warnings.length > 0 ? { warnings: options.warnings } : {}),
  };
}
