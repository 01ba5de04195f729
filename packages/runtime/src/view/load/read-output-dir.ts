/**
 * Reads any output directory `sandkit view` accepts: `sandkit run --out` (a `run.json` of format
 * `sandkit-run-1`), `sandkit eval --out` or `sandkit grade --out` (a `results.jsonl`).
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { RunRecord } from '../../run/run-record.js';
import type { ViewRun } from '../model/view-data.js';
import { instanceTags } from './instance-tags.js';
import { readAgentRun } from './read-agent-run.js';
import { readGradedRun } from './read-graded-run.js';
import { readTextFile } from './read-text-file.js';

const invalid = (message: string): never => {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
};

/**
 * @param dir the directory as given
 * @param reportDir the directory the HTML file goes to (relative links)
 * @throws SandkitError `invalid_option` when `dir` is not such a directory, saying which it might be
 *   (a `sandkit eval --example` output holds two: `gold/` and `wrong/`).
 */
export async function readOutputDir(dir: string, reportDir: string): Promise<ViewRun> {
  const run = await readRun(dir, reportDir);
  for (const instance of run.instances) instance.tags = instanceTags(instance);
  return run;
}

async function readRun(dir: string, reportDir: string): Promise<ViewRun> {
  const abs = resolve(dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory())
    invalid(
      `${dir} is not a directory: give the --out directory of sandkit eval, sandkit grade or sandkit run`,
    );
  const runJson = await readTextFile(join(abs, 'run.json'));
  if (runJson !== null) {
    let record: RunRecord | undefined;
    try {
      record = JSON.parse(runJson) as RunRecord;
    } catch (error) {
      invalid(`${join(abs, 'run.json')} is not JSON (${(error as Error).message})`);
    }
    if (record?.format !== 'sandkit-run-1')
      invalid(`${join(abs, 'run.json')} is not a sandkit run record (format sandkit-run-1)`);
    return { ...(await readAgentRun(abs, record as RunRecord, reportDir)), dir };
  }
  if (existsSync(join(abs, 'results.jsonl'))) return { ...(await readGradedRun(abs, reportDir)), dir };
  const inside = ['gold', 'wrong'].filter((sub) => existsSync(join(abs, sub, 'results.jsonl')));
  if (inside.length > 0)
    invalid(
      `${dir} holds the runs ${inside.map((sub) => `${sub}/`).join(' and ')} (sandkit eval --example): give one, e.g. sandkit view ${join(dir, inside[0] as string)}, or compare them: sandkit view ${inside.map((sub) => join(dir, sub)).join(' ')}`,
    );
  return invalid(
    `${dir} has neither results.jsonl (sandkit eval / grade --out) nor run.json (sandkit run --out): give the --out directory of one of those commands`,
  );
}
