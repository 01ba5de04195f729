/**
 * `writeViewReport`: the `sandkit view` report of one output directory (`sandkit eval`, `grade`
 * or `run`), or of two compared, written as one self-contained HTML file.
 * @module
 */
import { mkdir } from 'node:fs/promises';
import { basename, dirname, join, parse, relative, resolve, sep } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { writeAtomic } from '../eval/report/write-atomic.js';
import { readOutputDir } from './load/read-output-dir.js';
import { type ViewData, viewDataFormat } from './model/view-data.js';
import { renderReport } from './render-report.js';
import { loadViewerAssets } from './viewer-assets.js';

/** Options of {@link writeViewReport}. */
export interface ViewReportOptions {
  /** One output directory, or two to compare (A then B). */
  dirs: readonly string[];
  /**
   * The HTML file. Default: `<dir>/report.html` for one directory; for two, `compare.html` in
   * their closest common directory (so links reach both runs' logs), or in the current directory
   * when they share none but `/`.
   */
  out?: string;
}

/** What was written. */
export interface ViewReport {
  /** Absolute path of the HTML file. */
  file: string;
  /** Its size in bytes. */
  bytes: number;
  /** Instances of each run shown. */
  instances: number[];
}

/** The default `out` (see {@link ViewReportOptions.out}). */
export function defaultReportPath(dirs: readonly string[]): string {
  const [a, b] = dirs.map((dir) => resolve(dir));
  if (b === undefined) return join(a as string, 'report.html');
  let common = a as string;
  while (relative(common, b).startsWith('..') && dirname(common) !== common) common = dirname(common);
  return parse(common).root === common ? resolve('compare.html') : join(common, 'compare.html');
}

/**
 * Reads the directories and writes the report atomically (a half-written file never replaces an
 * earlier one).
 * @throws SandkitError `invalid_option` when `dirs` has not one or two entries, or a directory is
 *   not an output of eval, grade or run (the message says what it is); `output_not_written` when
 *   the file cannot be written.
 */
export async function writeViewReport(options: ViewReportOptions): Promise<ViewReport> {
  if (options.dirs.length !== 1 && options.dirs.length !== 2)
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `give one output directory, or two to compare (got ${options.dirs.length})`,
    });
  const file = resolve(options.out ?? defaultReportPath(options.dirs));
  const reportDir = dirname(file);
  const runs = await Promise.all(options.dirs.map((dir) => readOutputDir(dir, reportDir)));
  const data: ViewData = {
    format: viewDataFormat,
    generatedAt: new Date().toISOString(),
    runs: runs as ViewData['runs'],
  };
  const title =
    runs.length === 1
      ? `${runs[0]?.title}`
      : `compare ${options.dirs.map((d) => basename(resolve(d))).join(' vs ')}`;
  const html = renderReport(data, await loadViewerAssets(), title);
  await mkdir(reportDir, { recursive: true });
  await writeAtomic(file, html);
  return { file, bytes: Buffer.byteLength(html), instances: runs.map((run) => run.instances.length) };
}

/** `file` relative to the current directory when under it (`./x/report.html` reads better), else absolute. */
export function displayPath(file: string): string {
  const path = relative(process.cwd(), file);
  return path.startsWith('..') || path === '' ? file : `.${sep}${path}`;
}
