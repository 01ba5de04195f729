/**
 * Compares sandkit's status map of every (log, repository) case with the official parsers' map in
 * `official-parsers/statuses.json` (written by run.sh) and prints each difference and the count.
 * Differences named in `official-parser-parity.test.ts` are expected; this script only reports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../packages/runtime/test/eval/eval-test-helpers.js';
import { parserParityCases, sandkitStatuses } from '../../packages/runtime/test/eval/grade/parser-parity-cases.js';
import { diffStatusMaps, type OfficialStatusesFile } from '../../packages/runtime/test/eval/grade/status-map-diff.js';

const file = JSON.parse(
  readFileSync(join(repoRoot, 'packages/runtime/test/eval/fixtures/official-parsers/statuses.json'), 'utf8'),
) as OfficialStatusesFile;
const cases = new Map(parserParityCases().map((entry) => [`${entry.log}\t${entry.repo}`, entry]));
let agree = 0;
for (const row of file.cases) {
  const entry = cases.get(`${row.log}\t${row.repo}`);
  if (entry === undefined) continue;
  const official = row.statuses === undefined ? null : (file.maps[row.statuses] ?? null);
  const diff = diffStatusMaps(official, sandkitStatuses(entry));
  if (diff === null) {
    agree += 1;
    continue;
  }
  console.log(`${row.log.split('/').at(-1)} × ${row.repo}: ${row.error ?? JSON.stringify(diff)}`);
}
console.log(`${agree} of ${file.cases.length} (log, repository) status maps agree`);
