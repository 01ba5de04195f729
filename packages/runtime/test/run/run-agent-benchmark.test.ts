import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MockLanguageModelV3 } from 'ai/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadInstances } from '../../src/eval/load/instance-loader.js';
import type { SweBenchInstance } from '../../src/eval/load/swe-bench-instance.js';
import { runEval } from '../../src/eval/run-eval.js';
import { runAgentBenchmark, trajectoryPath } from '../../src/run/run-agent-benchmark.js';
import { trajectorySchema } from '../../src/run/trajectory-schema.js';
import { buildMirrors, miniInstances, tempDir } from '../eval/eval-test-helpers.js';
import { instanceModel, malformed, neverStops, oracle, type TurnScript } from './run-test-model.js';

let mirrors: string;
let cleanup: () => Promise<void>;
let instances: SweBenchInstance[];
beforeAll(async () => {
  const made = await tempDir('run-mirrors');
  mirrors = made.dir;
  cleanup = made.cleanup;
  buildMirrors(mirrors);
  instances = (await loadInstances(miniInstances)).instances;
});
afterAll(async () => cleanup());

async function outDir(name: string): Promise<string> {
  const made = await tempDir(`run-${name}`);
  return join(made.dir, 'out');
}

const base = () => ({ dataset: miniInstances, reposDir: mirrors, modelName: 'mock:oracle', workers: 2 });

describe('runAgentBenchmark', () => {
  describe('when the model makes the gold patch with apply_diff', () => {
    it('ends every instance submitted, writes preds.json keyed by id, and the predictions resolve under runEval', async () => {
      const out = await outDir('oracle');
      const run = await runAgentBenchmark({ ...base(), out, model: instanceModel(instances, oracle) });
      expect(run.record.status_counts.submitted).toBe(6);
      const preds = JSON.parse(await readFile(join(out, 'preds.json'), 'utf8'));
      expect(Object.keys(preds).sort()).toEqual(instances.map((i) => i.instance_id).sort());
      for (const instance of instances) {
        expect(preds[instance.instance_id]).toMatchObject({
          instance_id: instance.instance_id,
          model_name_or_path: 'mock:oracle',
        });
        expect(preds[instance.instance_id].model_patch).toContain('diff --git');
        expect(preds[instance.instance_id].model_patch).not.toContain('.sandkit');
        const traj = trajectorySchema.parse(
          JSON.parse(await readFile(trajectoryPath(out, instance.instance_id), 'utf8')),
        );
        expect(traj.steps).toHaveLength(2);
        expect(traj.steps[0]?.tool_calls[0]).toMatchObject({ name: 'apply_diff', is_error: false });
        expect(traj.steps[0]?.tool_calls[0]?.duration_ms).toBeGreaterThan(0);
        expect(traj.steps[0]?.usage).toEqual({
          input_tokens: 1000,
          output_tokens: 50,
          cached_input_tokens: 200,
          cache_write_tokens: 0,
          reasoning_tokens: 10,
        });
        expect(traj.messages.length).toBeGreaterThanOrEqual(4);
      }
      const runJson = JSON.parse(await readFile(join(out, 'run.json'), 'utf8'));
      expect(runJson).toMatchObject({ instances: 6, finished: 6, ran: 6, steps: 12 });
      expect(runJson.tokens.input_tokens).toBe(12_000);
      expect(run.summary).toContain('| submitted |');
      // the object form of preds.json is graded as a predictions file
      const graded = await runEval({
        dataset: miniInstances,
        predictions: join(out, 'preds.json'),
        reposDir: mirrors,
        out: join(out, 'eval'),
        workers: 2,
        durationsCache: false,
      });
      expect(graded.report.resolved_instances).toBe(6);
      expect(existsSync(join(out, '.sandboxes'))).toBe(false);
    });
  });

  describe('when the model never stops calling tools', () => {
    it('ends at step_limit and still takes the patch of what it wrote', async () => {
      const out = await outDir('never');
      const run = await runAgentBenchmark({
        ...base(),
        out,
        instanceIds: ['sandkit-mini__pager-1'],
        stepLimit: 3,
        model: instanceModel(instances, neverStops),
      });
      const traj = run.trajectories.get('sandkit-mini__pager-1');
      expect(traj?.exit_status).toBe('step_limit');
      expect(traj?.steps).toHaveLength(3);
      expect(traj?.patch).toContain('+++ b/NOTES.txt');
    });
  });

  describe('when every tool call is malformed JSON', () => {
    it('ends with format_error after three such calls in a row', async () => {
      const out = await outDir('malformed');
      const run = await runAgentBenchmark({
        ...base(),
        out,
        instanceIds: ['sandkit-mini__pager-1'],
        model: instanceModel(instances, malformed),
      });
      const traj = run.trajectories.get('sandkit-mini__pager-1');
      expect(traj?.exit_status).toBe('format_error');
      expect(traj?.steps).toHaveLength(3);
      expect(traj?.steps[0]?.tool_calls[0]).toMatchObject({ is_error: true, duration_ms: null });
      expect(traj?.patch).toBe('');
    });
  });

  describe('when the model request fails', () => {
    it('ends that instance with model_error and runs the others', async () => {
      const out = await outDir('model-error');
      const model = new MockLanguageModelV3({
        doGenerate: async (options) => {
          if (JSON.stringify(options.prompt[0]).includes(instances[0]!.base_commit))
            throw new Error('500 from the server');
          return instanceModel(instances, oracle).doGenerate(options);
        },
      });
      const run = await runAgentBenchmark({
        ...base(),
        out,
        instanceIds: [instances[0]!.instance_id, instances[1]!.instance_id],
        maxRetries: 0,
        model,
      });
      expect(run.trajectories.get(instances[0]!.instance_id)).toMatchObject({
        exit_status: 'model_error',
        error: { message: '500 from the server' },
      });
      expect(run.trajectories.get(instances[1]!.instance_id)?.exit_status).toBe('submitted');
    });
  });

  describe('when a cost limit is set', () => {
    it('stops the instance before the call that would start past it', async () => {
      const out = await outDir('cost');
      const run = await runAgentBenchmark({
        ...base(),
        out,
        instanceIds: ['sandkit-mini__pager-1'],
        costLimitUsd: 0.025,
        costOf: () => 0.01,
        model: instanceModel(instances, neverStops),
      });
      const traj = run.trajectories.get('sandkit-mini__pager-1');
      expect(traj?.exit_status).toBe('cost_limit');
      expect(traj?.steps).toHaveLength(3);
      expect(traj?.totals.cost_usd).toBeCloseTo(0.03);
    });

    it('with --total-cost-limit, stops the instance that reaches it and starts no other', async () => {
      const out = await outDir('total-cost');
      const run = await runAgentBenchmark({
        ...base(),
        workers: 1,
        out,
        instanceIds: ['sandkit-mini__pager-1', 'sandkit-mini__pager-2'],
        totalCostLimitUsd: 0.015,
        costOf: () => 0.01,
        model: instanceModel(instances, neverStops),
      });
      expect(run.trajectories.get('sandkit-mini__pager-1')).toMatchObject({ exit_status: 'cost_limit' });
      expect(run.trajectories.get('sandkit-mini__pager-1')?.steps).toHaveLength(2);
      expect(run.trajectories.has('sandkit-mini__pager-2')).toBe(false);
      expect(run.record).toMatchObject({ instances: 2, finished: 1 });
    });

    it('refuses a cost limit without a price, saying how to give one', async () => {
      await expect(
        runAgentBenchmark({
          ...base(),
          out: await outDir('noprice'),
          costLimitUsd: 1,
          model: instanceModel(instances, oracle),
        }),
      ).rejects.toThrow(/--price input=/);
    });
  });

  describe('when the agent commits its change and runs commands', () => {
    it('takes the patch against the prepared tree, so the commit is in it and .sandkit/ is not', async () => {
      const out = await outDir('commit');
      const commitAfterFix: TurnScript = (instance, turn) => {
        const calls = [
          { toolName: 'apply_diff', input: { diff: instance.patch } },
          {
            toolName: 'exec',
            input: {
              command: 'git -c user.name=a -c user.email=a@b.c commit -qam fix && git log --oneline | wc -l',
            },
          },
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
      const run = await runAgentBenchmark({
        ...base(),
        out,
        instanceIds: ['sandkit-mini__pager-1'],
        model: instanceModel(instances, commitAfterFix),
      });
      const traj = run.trajectories.get('sandkit-mini__pager-1');
      expect(traj?.steps[1]?.tool_calls[0]).toMatchObject({ name: 'exec', is_error: false });
      expect(traj?.patch).toContain('Math.ceil');
      expect(traj?.patch).not.toContain('.sandkit');
    });
  });

  describe('when the instance runs past --instance-timeout', () => {
    it('ends it with timeout, keeping the steps so far and the patch', async () => {
      const out = await outDir('timeout');
      const slow = new MockLanguageModelV3({
        doGenerate: async (options) => {
          const turn = options.prompt.filter((m) => m.role === 'assistant').length;
          if (turn === 0) return instanceModel(instances, neverStops).doGenerate(options);
          return new Promise((_, reject) =>
            options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason)),
          );
        },
      });
      const run = await runAgentBenchmark({
        ...base(),
        out,
        instanceIds: ['sandkit-mini__pager-1'],
        instanceTimeoutSeconds: 3,
        model: slow,
      });
      const traj = run.trajectories.get('sandkit-mini__pager-1');
      expect(traj?.exit_status).toBe('timeout');
      expect(traj?.error?.message).toMatch(/--instance-timeout 3 s/);
      expect(traj?.steps).toHaveLength(1);
      expect(traj?.patch).toContain('NOTES.txt');
    });
  });

  describe('when the run is aborted mid-instance', () => {
    it('writes the partial trajectory as aborted, leaves it out of preds.json, and --resume runs it again', async () => {
      const out = await outDir('abort');
      const controller = new AbortController();
      const hang = new MockLanguageModelV3({
        doGenerate: (options) =>
          new Promise((_, reject) => {
            setTimeout(() => controller.abort(), 200);
            options.abortSignal?.addEventListener('abort', () => reject(options.abortSignal?.reason));
          }),
      });
      const id = 'sandkit-mini__pager-1';
      const aborted = await runAgentBenchmark({
        ...base(),
        out,
        instanceIds: [id],
        model: hang,
        signal: controller.signal,
      });
      expect(aborted.interrupted).toBe(true);
      const partial = trajectorySchema.parse(JSON.parse(await readFile(trajectoryPath(out, id), 'utf8')));
      expect(partial.exit_status).toBe('aborted');
      expect(JSON.parse(await readFile(join(out, 'preds.json'), 'utf8'))).toEqual({});
      await expect(
        runAgentBenchmark({ ...base(), out, instanceIds: [id], model: instanceModel(instances, oracle) }),
      ).rejects.toThrow(/--resume/);
      // what a killed run would leave behind: a sandbox directory in <out>/.sandboxes
      await mkdir(join(out, '.sandboxes', 'sandkit-leftover'), { recursive: true });
      const resumed = await runAgentBenchmark({
        ...base(),
        out,
        instanceIds: [id, 'sandkit-mini__pager-2'],
        resume: true,
        model: instanceModel(instances, oracle),
      });
      expect(resumed.record.ran).toBe(2);
      const again = await runAgentBenchmark({
        ...base(),
        out,
        resume: true,
        model: instanceModel(instances, oracle),
      });
      expect(again.record).toMatchObject({ ran: 4, finished: 6 });
      const preds = JSON.parse(await readFile(join(out, 'preds.json'), 'utf8'));
      expect(Object.keys(preds)).toHaveLength(6);
      expect(existsSync(join(out, 'summary.md'))).toBe(true);
      expect(existsSync(join(out, '.sandboxes'))).toBe(false);
    });
  });
});
