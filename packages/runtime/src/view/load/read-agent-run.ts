/**
 * A `sandkit run --out` directory as a {@link ViewRun}: `run.json`, each instance's trajectory,
 * and with `--eval` the verdicts of `eval/` (a `sandkit eval` output) merged in by instance id.
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { RunRecord } from '../../run/run-record.js';
import { trajectoryPath } from '../../run/run-agent-benchmark.js';
import { trajectorySchema } from '../../run/trajectory-schema.js';
import type { ViewInstance, ViewRun } from '../model/view-data.js';
import { readGradedRun } from './read-graded-run.js';
import { readTextFile } from './read-text-file.js';
import { relativeHref } from './relative-href.js';
import { repoOfId } from './repo-of-id.js';
import { viewTrajectory } from './read-trajectory.js';
import { computeTotals } from './totals.js';

const invalid = (message: string): never => {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
};

/**
 * @param record the directory's parsed `run.json`
 * @throws SandkitError `invalid_option` when a trajectory named in `run.json` is missing or not a
 *   `sandkit-trajectory-1`, naming the file.
 */
export async function readAgentRun(dir: string, record: RunRecord, reportDir: string): Promise<ViewRun> {
  const graded = existsSync(join(dir, 'eval', 'results.jsonl'))
    ? await readGradedRun(join(dir, 'eval'), reportDir)
    : null;
  const verdicts = new Map(graded?.instances.map((instance) => [instance.id, instance]));
  const instances: ViewInstance[] = [];
  for (const id of Object.keys(record.statuses)) {
    const file = trajectoryPath(dir, id);
    const text = await readTextFile(file);
    if (text === null)
      invalid(`${file} is missing, though run.json lists ${id}: rerun with sandkit run --resume`);
    let value: unknown;
    try {
      value = JSON.parse(text as string);
    } catch (error) {
      invalid(`${file} is not JSON (${(error as Error).message})`);
    }
    const parsed = trajectorySchema.safeParse(value);
    if (!parsed.success)
      return invalid(
        `${file} is not a sandkit trajectory (sandkit-trajectory-1): ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
      );
    const t = parsed.data;
    const trajectory = viewTrajectory(t, relativeHref(reportDir, file));
    const tokens = (t.totals.input_tokens ?? 0) + (t.totals.output_tokens ?? 0);
    const agent = {
      exitStatus: t.exit_status,
      costUsd: t.totals.cost_usd,
      tokens: t.totals.input_tokens === null && t.totals.output_tokens === null ? null : tokens,
      steps: t.totals.steps,
      trajectory,
    };
    const verdict = verdicts.get(id);
    instances.push(
      verdict !== undefined
        ? { ...verdict, ...agent }
        : {
            id,
            tags: [],
            repo: repoOfId(id),
            status: t.exit_status,
            errorKind: null,
            infraError: t.exit_status === 'sandbox_error',
            reason: `Agent run ended as ${t.exit_status}${trajectory.error === null ? '' : ` (${trajectory.error})`}; not graded (run with --eval, or sandkit eval on preds.json).`,
            f2p: null,
            p2p: null,
            tests: [],
            patchMethod: null,
            patchSteps: [],
            patch: trajectory.patch,
            log: null,
            official: null,
            notes: t.patch_error === null ? [] : [`patch not taken: ${t.patch_error}`],
            durationMs: t.duration_ms,
            ...agent,
          },
    );
  }
  const model = typeof record.options.model === 'string' ? record.options.model : null;
  return {
    kind: 'run',
    dir,
    title: `sandkit run: ${dir}`,
    model,
    totals: computeTotals(instances, graded !== null, true),
    instances,
  };
}
