/**
 * A `sandkit eval --out` or `sandkit grade --out` directory as a {@link ViewRun}: `results.jsonl`,
 * each instance's `instances/<id>/report.json`, and its logs (beside it for eval; where
 * `log_dir` says for grade).
 * @module
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ViewRun } from '../model/view-data.js';
import { readGradedInstance } from './read-graded-instance.js';
import { readResults } from './read-results.js';
import { computeTotals } from './totals.js';

/** Instances read at once (file handles: four files each). */
const concurrency = 16;

/**
 * @param dir the output directory
 * @param reportDir the directory the HTML file goes to
 * @throws SandkitError `invalid_option` for a missing or broken `results.jsonl` (see `readResults`)
 */
export async function readGradedRun(dir: string, reportDir: string): Promise<ViewRun> {
  const results = await readResults(join(dir, 'results.jsonl'));
  const kind = results.some((result) => result.log_dir !== undefined || result.official !== undefined)
    ? 'grade'
    : 'eval';
  const instances = new Array<Awaited<ReturnType<typeof readGradedInstance>>>(results.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < results.length) {
      const i = next++;
      const result = results[i] as (typeof results)[number];
      const own = join(dir, 'instances', result.instance_id);
      instances[i] = await readGradedInstance(
        result,
        {
          report: join(own, 'report.json'),
          logDir: result.log_dir ?? (existsSync(own) ? own : null),
        },
        reportDir,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, results.length) }, worker));
  const models = [...new Set(results.map((result) => result.model_name_or_path).filter((m) => m !== null))];
  return {
    kind,
    dir,
    title: `sandkit ${kind}: ${dir}`,
    model: models.length === 0 ? null : models.join(', '),
    totals: computeTotals(instances, true, false),
    instances,
  };
}
