import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInstances } from '../../src/eval/load/instance-loader.js';
import type { SweBenchInstance } from '../../src/eval/load/swe-bench-instance.js';
import { replayTrajectory } from '../../src/run/replay-trajectory.js';
import { runAgentBenchmark, trajectoryPath } from '../../src/run/run-agent-benchmark.js';
import { buildMirrors, miniInstances, runCli, tempDir } from '../eval/eval-test-helpers.js';
import { instanceModel, type TurnScript } from './run-test-model.js';

let dir: string;
let cleanup: () => Promise<void>;
let instances: SweBenchInstance[];
const id = 'sandkit-mini__pager-1';
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('replay'));
  buildMirrors(join(dir, 'mirrors'));
  instances = (await loadInstances(miniInstances)).instances;
});
afterAll(async () => cleanup());

/** Reads the file the gold patch changes, applies the patch, runs a command, answers. */
const readThenFix: TurnScript = (instance, turn) => {
  const calls = [
    { toolName: 'read_file', input: { path: 'src/paginate.js' } },
    { toolName: 'apply_diff', input: { diff: instance.patch } },
    { toolName: 'exec', input: { command: 'git status --short' } },
  ];
  const call = calls[turn];
  return call === undefined
    ? [{ type: 'text', text: 'done' }]
    : [
        {
          type: 'tool-call',
          toolCallId: `c${turn}`,
          toolName: call.toolName,
          input: JSON.stringify(call.input),
        },
      ];
};

describe('replayTrajectory', () => {
  it('reproduces every result and the same patch of a recorded run, without a model', async () => {
    const out = join(dir, 'run');
    await runAgentBenchmark({
      dataset: miniInstances,
      reposDir: join(dir, 'mirrors'),
      out,
      instanceIds: [id],
      modelName: 'mock',
      model: instanceModel(instances, readThenFix),
    });
    const replay = await replayTrajectory({
      trajectory: trajectoryPath(out, id),
      dataset: miniInstances,
      reposDir: join(dir, 'mirrors'),
    });
    expect(replay).toMatchObject({ instanceId: id, calls: 3, firstDivergence: null, samePatch: true });
    expect(replay.patch).toContain('Math.ceil');
  });

  it('names the first call whose result differs when a file of the repository has changed', async () => {
    const changed = join(dir, 'changed.jsonl');
    const rows = (await readFile(miniInstances, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const row = rows.find((r) => r.instance_id === id);
    row.setup_cmd = "printf '// changed\\n' >> src/paginate.js";
    await writeFile(changed, `${JSON.stringify(row)}\n`);
    const replay = await replayTrajectory({
      trajectory: trajectoryPath(join(dir, 'run'), id),
      dataset: changed,
      reposDir: join(dir, 'mirrors'),
    });
    expect(replay.firstDivergence).toMatchObject({ step: 0, tool: 'read_file', callId: 'c0' });
    expect(replay.firstDivergence?.replayed).toContain('// changed');
  });

  it('sandkit replay prints the first differing call and exits 1, and exits 0 when all is the same', async () => {
    const traj = trajectoryPath(join(dir, 'run'), id);
    const same = await runCli(['replay', traj, '--dataset', miniInstances, '--repos', join(dir, 'mirrors')]);
    expect(same.stdout).toContain('every result is the same as recorded');
    expect(same.stdout).toContain('final patch: the same');
    expect(same.code).toBe(0);
    const differs = await runCli([
      'replay',
      traj,
      '--dataset',
      join(dir, 'changed.jsonl'),
      '--repos',
      join(dir, 'mirrors'),
    ]);
    expect(differs.stdout).toContain('first differing result: step 0, call c0 (read_file)');
    expect(differs.code).toBe(1);
    const bad = await runCli(['replay', join(dir, 'run', 'run.json'), '--dataset', miniInstances]);
    expect(bad.stderr).toContain('is not a sandkit trajectory');
    expect(bad.code).toBe(2);
  });
});
