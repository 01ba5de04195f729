/**
 * Compares `officialEvalScript` with the scripts the published harness built (official-scripts.py's
 * JSON on stdin). Prints each difference and exits 1 when there is one. Run through check.sh.
 */
import { readFileSync } from 'node:fs';
import { officialEvalScript } from '../../packages/runtime/src/eval/specs/official-eval-script.js';

interface OfficialRow {
  instance: { repo: string; version: string; instance_id: string; base_commit: string; test_patch: string };
  script: string | null;
}

const { rows } = JSON.parse(readFileSync(0, 'utf8')) as { rows: OfficialRow[] };
let differences = 0;
for (const { instance, script } of rows) {
  let ours: string | null;
  try {
    ours = officialEvalScript(instance);
  } catch {
    ours = null;
  }
  if (ours === script) continue;
  differences += 1;
  console.log(
    `${instance.repo} ${instance.version}:\n  official ${JSON.stringify(script)}\n  sandkit  ${JSON.stringify(ours)}`,
  );
}
console.log(`${rows.length - differences} of ${rows.length} scripts identical`);
process.exitCode = differences === 0 ? 0 : 1;
