// `sandkit grade` from the installed tarballs under plain node, on worker threads (the built
// package's worker path: each worker imports the compiled grade-worker.js, no tsx): 25 logs made
// from the repository's grade fixtures (argv[2]), graded with jobs 3 and jobs 1 through the API
// (same files, byte for byte, but for the time column), then through the installed bin.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGrade } from '@sandkit/runtime';

const fixtures = process.argv[2];
const logs = join(fixtures, 'logs/run_evaluation/fixture-run');
const bin = join(process.cwd(), 'node_modules/.bin/sandkit');
const work = mkdtempSync(join(tmpdir(), 'sandkit-smoke-grade-'));
try {
  const rows = readFileSync(join(fixtures, 'dataset.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const copied = [];
  for (let copy = 0; copy < 5; copy++)
    for (const line of rows) {
      const row = JSON.parse(line);
      const id = row.instance_id.replace(/-900(\d\d)$/, `-9${copy}0$1`);
      copied.push(JSON.stringify({ ...row, instance_id: id }));
      for (const model of readdirSync(logs)) {
        if (!existsSync(join(logs, model, row.instance_id))) continue;
        const target = join(work, 'logs', model, id);
        mkdirSync(target, { recursive: true });
        cpSync(join(logs, model, row.instance_id), target, { recursive: true });
        const report = readFileSync(join(target, 'report.json'), 'utf8');
        writeFileSync(join(target, 'report.json'), report.replaceAll(row.instance_id, id));
      }
    }
  const dataset = join(work, 'dataset.jsonl');
  writeFileSync(dataset, `${copied.join('\n')}\n`);

  const three = await runGrade({ dataset, logs: join(work, 'logs'), out: join(work, 'out-3'), jobs: 3 });
  const one = await runGrade({ dataset, logs: join(work, 'logs'), out: join(work, 'out-1'), jobs: 1 });
  assert.deepEqual([three.threads, one.threads], [3, 1]);
  assert.equal(three.report.total_instances, 25);
  assert.equal(three.report.resolved_instances, 15);
  const ids = readdirSync(join(work, 'out-1/instances'));
  assert.equal(ids.length, 25);
  for (const file of ['run_report.json', ...ids.map((id) => `instances/${id}/report.json`)])
    assert.equal(
      readFileSync(join(work, 'out-3', file), 'utf8'),
      readFileSync(join(work, 'out-1', file), 'utf8'),
      file,
    );

  const cli = execFileSync(
    bin,
    ['grade', '--dataset', dataset, '--logs', join(work, 'logs'), '--out', join(work, 'cli'), '--jobs', '3'],
    {
      encoding: 'utf8',
    },
  );
  assert.match(cli, /Resolved: 15 of 25/);
  assert.match(cli, /sandkit agrees on \d+, differs on \d+/);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log('pack smoke: sandkit grade on 3 threads (2 workers) matches 1 thread under plain node');
