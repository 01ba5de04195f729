/**
 * Compares sandkit's status map of every (log, repository) case with the official parsers' map in
 * `official-parsers/statuses.json` (written by run.sh) and prints the counts and each case where
 * grading would differ. `official-parser-parity.test.ts` asserts the same with every difference
 * named; this script only reports. Run through run.sh.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../packages/runtime/test/eval/eval-test-helpers.js';
import {
  parserParityCases,
  sandkitStatuses,
} from '../../packages/runtime/test/eval/grade/parser-parity-cases.js';
import {
  diffStatusMaps,
  gradingDifferences,
  type OfficialStatusesFile,
} from '../../packages/runtime/test/eval/grade/status-map-diff.js';

const file = JSON.parse(
  readFileSync(join(repoRoot, 'packages/runtime/test/eval/fixtures/official-parsers/statuses.json'), 'utf8'),
) as OfficialStatusesFile;
const cases = new Map(parserParityCases().map((entry) => [`${entry.log}\t${entry.repo}`, entry]));
const counts = { pairs: 0, officialEmpty: 0, compared: 0, identical: 0, equivalent: 0, differ: 0, raised: 0 };
/** Per repository: logs the official parser read tests in, and of those, the ones graded alike. */
const byRepo = new Map<string, { compared: number; alike: number }>();
const repoCount = (repo: string) => {
  const entry = byRepo.get(repo) ?? { compared: 0, alike: 0 };
  byRepo.set(repo, entry);
  return entry;
};
for (const row of file.cases) {
  const entry = cases.get(`${row.log}\t${row.repo}`);
  if (entry === undefined)
    throw new Error(`statuses.json is stale: no case ${row.log} × ${row.repo}; rerun run.sh`);
  counts.pairs += 1;
  const name = `${row.log.split('/').slice(-2).join('/')} × ${row.repo}`;
  if (row.statuses === undefined) {
    counts.raised += 1;
    console.log(`${name}: the official parser raised ${row.error}`);
    continue;
  }
  const official = file.maps[row.statuses] as Record<string, string>;
  if (Object.keys(official).length === 0) {
    counts.officialEmpty += 1;
    continue;
  }
  counts.compared += 1;
  repoCount(row.repo).compared += 1;
  const ours = sandkitStatuses(entry);
  if (diffStatusMaps(official, ours) === null) counts.identical += 1;
  const { laxer, stricter } = gradingDifferences(official, ours, entry.failOnly);
  if (laxer.length + stricter.length === 0) {
    counts.equivalent += 1;
    repoCount(row.repo).alike += 1;
    continue;
  }
  counts.differ += 1;
  const show = (ids: string[]) =>
    ids.map((id) => `${JSON.stringify(id)} ${official[id]}→${ours.get(id) ?? '-'}`);
  console.log(
    `${name}: ${laxer.length > 0 ? `LAXER ${show(laxer).join(', ')}; ` : ''}stricter ${show(stricter).join(', ')}`,
  );
}
console.log(
  `${counts.pairs} (log, repository) pairs; the official parser read tests in ${counts.compared} ` +
    `(nothing in ${counts.officialEmpty}, raised in ${counts.raised}): sandkit's map is identical in ` +
    `${counts.identical}, grades every official id alike in ${counts.equivalent}, differs in ${counts.differ}`,
);
// The "real logs: A of B grade alike" cells of docs/running-swe-bench.md's parity table.
for (const [repo, { compared, alike }] of [...byRepo].sort(([a], [b]) => a.localeCompare(b)))
  console.log(`${repo}: real logs: ${alike} of ${compared} grade alike`);
