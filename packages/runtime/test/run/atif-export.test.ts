/**
 * `toAtifTrajectory` and `sandkit run --atif`: a real run's trajectories exported to Harbor's
 * ATIF v1.7 validate against the schema written from Harbor's models, and the schema refuses what
 * Harbor's validator refuses.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInstances } from '../../src/eval/load/instance-loader.js';
import type { SweBenchInstance } from '../../src/eval/load/swe-bench-instance.js';
import { type AtifTrajectory, atifTrajectorySchema } from '../../src/run/atif/atif-schema.js';
import { toAtifTrajectory } from '../../src/run/atif/to-atif.js';
import { atifPath, runAgentBenchmark } from '../../src/run/run-agent-benchmark.js';
import type { Trajectory } from '../../src/run/trajectory-schema.js';
import { buildMirrors, miniInstances, tempDir } from '../eval/eval-test-helpers.js';
import { instanceModel, malformed, oracle } from './run-test-model.js';

let dir: string;
let cleanup: () => Promise<void>;
let instances: SweBenchInstance[];
let oracleRun: Trajectory;
let malformedRun: Trajectory;
const id = 'sandkit-mini__pager-1';
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('run-atif'));
  buildMirrors(join(dir, 'mirrors'));
  instances = (await loadInstances(miniInstances)).instances;
  const run = (name: string, script: typeof oracle) =>
    runAgentBenchmark({
      dataset: miniInstances,
      reposDir: join(dir, 'mirrors'),
      cacheDir: join(dir, 'cache'),
      out: join(dir, name),
      instanceIds: [id],
      modelName: 'anthropic:claude-test',
      model: instanceModel(instances, script),
      costOf: (usage) => (usage.inputTokens ?? 0) * 1e-6,
      atif: true,
    });
  oracleRun = (await run('oracle', oracle)).trajectories.get(id) as Trajectory;
  malformedRun = (await run('malformed', malformed)).trajectories.get(id) as Trajectory;
}, 120_000);
afterAll(() => cleanup());

describe('toAtifTrajectory', () => {
  it('writes the prompt as step 1 and each model call as an agent step with its calls, results and metrics', async () => {
    const atif = atifTrajectorySchema.parse(
      JSON.parse(await readFile(atifPath(join(dir, 'oracle'), id), 'utf8')),
    );
    expect(atif.schema_version).toBe('ATIF-v1.7');
    expect(atif.agent).toMatchObject({ name: 'sandkit', model_name: 'anthropic:claude-test' });
    expect(atif.steps.map((s) => [s.step_id, s.source])).toEqual([
      [1, 'user'],
      [2, 'agent'],
      [3, 'agent'],
    ]);
    expect(atif.steps[0]?.message).toBe(oracleRun.prompt);
    const call = atif.steps[1];
    expect(call?.tool_calls?.[0]).toMatchObject({
      function_name: 'apply_diff',
      arguments: { diff: expect.any(String) },
    });
    expect(call?.observation?.results[0]).toMatchObject({
      source_call_id: call?.tool_calls?.[0]?.tool_call_id,
      extra: { is_error: false },
    });
    expect(JSON.parse(String(call?.observation?.results[0]?.content))).toMatchObject({
      files: expect.any(Array),
    });
    // the test model reports 1000 input tokens (200 of them cached), 50 output (10 reasoning)
    expect(call?.metrics).toMatchObject({
      prompt_tokens: 1000,
      cached_tokens: 200,
      completion_tokens: 50,
      cost_usd: 0.001,
      extra: { reasoning_tokens: 10 },
    });
    expect(call?.llm_call_count).toBe(1);
    expect(atif.steps[2]?.message).toBe('Applied the fix.');
    expect(atif.final_metrics).toMatchObject({
      total_prompt_tokens: 2000,
      total_completion_tokens: 100,
      total_cached_tokens: 400,
      total_steps: 3,
      extra: { model_calls: 2, tool_calls: 1 },
    });
    expect(atif.extra).toMatchObject({ instance_id: id, exit_status: 'submitted', patch: oracleRun.patch });
  });

  it('keeps arguments that are not a JSON object as text in the call extra, with arguments {}', () => {
    const atif = toAtifTrajectory(malformedRun);
    const call = atif.steps[1]?.tool_calls?.[0];
    expect(call).toMatchObject({
      function_name: 'read_file',
      arguments: {},
      extra: { raw_arguments: '{"path": "README' },
    });
    expect(atif.steps[1]?.observation?.results[0]?.extra).toMatchObject({
      is_error: true,
      duration_ms: null,
    });
    expect(atif.extra?.exit_status).toBe('format_error');
  });

  it('puts a failed attempt first, then a system step saying the sandbox failed, then the prompt again', () => {
    const retried: Trajectory = {
      ...oracleRun,
      attempts: [
        {
          attempt: 1,
          exit_status: 'sandbox_error',
          error: { message: 'sandbox expired', kind: 'sandbox_gone' },
          started_at: oracleRun.started_at,
          finished_at: oracleRun.started_at,
          duration_ms: 5,
          sandbox: oracleRun.sandbox,
          messages: [{ role: 'user', content: oracleRun.prompt }],
          steps: oracleRun.steps.slice(0, 1),
          patch: '',
          patch_error: null,
        },
      ],
    };
    const atif = toAtifTrajectory(retried);
    expect(atif.steps.map((s) => s.source)).toEqual(['user', 'agent', 'system', 'user', 'agent', 'agent']);
    expect(atif.steps[2]?.message).toContain('sandbox expired');
    expect(atif.steps[1]?.extra).toMatchObject({ attempt: 1 });
    expect(atif.steps[4]?.extra).toMatchObject({ attempt: 2 });
  });
});

describe('atifTrajectorySchema', () => {
  const valid = (): AtifTrajectory => JSON.parse(JSON.stringify(toAtifTrajectory(oracleRun)));
  it.each<[string, (string | number)[], unknown, RegExp]>([
    ['step ids that do not run 1, 2, 3', ['steps', 1, 'step_id'], 5, /sequential from 1/],
    [
      'a result whose source_call_id is not a call of its step',
      ['steps', 1, 'observation', 'results', 0, 'source_call_id'],
      'nope',
      /not among step 2/,
    ],
    ['tool calls on a user step', ['steps', 0, 'tool_calls'], [], /only applicable when source is 'agent'/],
    ['metrics on a step with llm_call_count 0', ['steps', 1, 'llm_call_count'], 0, /llm_call_count is 0/],
    ['a field the format does not have', ['steps', 1, 'tokens'], 3, /Unrecognized key/],
    ['arguments that are not an object', ['steps', 1, 'tool_calls', 0, 'arguments'], '{}', /expected record/],
    ['another schema version', ['schema_version'], 'ATIF-v2.0', /schema_version/],
    ['no steps', ['steps'], [], /steps/],
  ])('refuses %s', (_name, path, value, message) => {
    const document = valid() as unknown as Record<string | number, unknown>;
    expect(atifTrajectorySchema.safeParse(document).success).toBe(true);
    let node = document;
    for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
    node[path.at(-1) as string | number] = value;
    const parsed = atifTrajectorySchema.safeParse(document);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toMatch(message);
  });
});
