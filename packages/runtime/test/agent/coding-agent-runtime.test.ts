import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { defineTool, SandboxError, type SandboxSession, SandkitError, SandkitErrorCode } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentStep } from '../../src/agent/agent-run-types.js';
import { createCodingAgentRuntime } from '../../src/agent/coding-agent-runtime.js';
import {
  createPooledSandboxProvider,
  type PooledSandboxProvider,
} from '../../src/pool/pooled-sandbox-provider.js';
import { lastToolResults, scriptedModel, text, toolCall } from './scripted-model.js';

const pools: PooledSandboxProvider[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
function localPool(): PooledSandboxProvider {
  const pool = createPooledSandboxProvider({ adapter: createLocalSandboxAdapter(), max: 1 });
  pools.push(pool);
  return pool;
}

/** A real git repo with a failing node:test suite: `add` subtracts. */
async function buggyRepo(session: SandboxSession): Promise<void> {
  await session.client.writeFile('src/math.js', 'export function add(a, b) {\n  return a - b;\n}\n');
  await session.client.writeFile(
    'math.test.js',
    "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { add } from './src/math.js';\ntest('adds', () => assert.strictEqual(add(2, 3), 5));\n",
  );
  await session.client.writeFile('package.json', '{"type":"module"}\n');
  const git = await session.client.exec(
    'git init -q && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm init',
  );
  expect(git.exitCode).toBe(0);
}

describe('createCodingAgentRuntime', () => {
  describe('when the model reads, edits and runs the tests', () => {
    it('runs real tools in a real sandbox, returns the git diff and releases the sandbox', async () => {
      const pool = localPool();
      const prompts: LanguageModelV3CallOptions[] = [];
      const model = scriptedModel([
        [toolCall('c1', 'read_file', { path: 'src/math.js' })],
        (o) => {
          prompts.push(o);
          return [
            toolCall('c2', 'edit_file', {
              path: 'src/math.js',
              edits: [{ oldText: 'a - b', newText: 'a + b' }],
            }),
          ];
        },
        [toolCall('c3', 'exec', { command: 'node --test math.test.js' })],
        (o) => {
          prompts.push(o);
          return [text('Fixed add().')];
        },
      ]);
      const steps: AgentStep[] = [];
      const agent = createCodingAgentRuntime({
        sandboxProvider: pool,
        model,
        maxSteps: 10,
        onStep: (s) => void steps.push(s),
      });
      const result = await agent.run({ task: 'Make the tests pass.', setup: buggyRepo });

      expect(result.text).toBe('Fixed add().');
      expect(result.steps).toHaveLength(4);
      expect(steps.map((s) => s.index)).toEqual([0, 1, 2, 3]);
      expect(result.toolCalls.map((c) => [c.toolCallId, c.toolName, c.isError])).toEqual([
        ['c1', 'read_file', false],
        ['c2', 'edit_file', false],
        ['c3', 'exec', false],
      ]);
      expect(lastToolResults(prompts[0]!)[0]!.text).toContain('return a - b;');
      expect(result.toolCalls[2]!.output).toMatchObject({ exitCode: 0 });
      expect(result.diff).toContain('-  return a - b;');
      expect(result.diff).toContain('+  return a + b;');
      expect(result.usage.inputTokens).toBe(40);
      expect(result.sandboxId).toMatch(/^local-/);
      expect(result.providerName).toBe('local');
      expect(pool.stats()).toMatchObject({ inUse: 0, idle: 1 });
    });
  });

  describe('when a tool call fails', () => {
    it('sends the error back to the model as an error result and goes on', async () => {
      const pool = localPool();
      let seen: ReturnType<typeof lastToolResults> = [];
      const model = scriptedModel([
        [
          toolCall('e1', 'edit_file', {
            path: 'src/math.js',
            edits: [{ oldText: 'no such text', newText: 'x' }],
          }),
        ],
        (o) => {
          seen = lastToolResults(o);
          return [text('gave up')];
        },
      ]);
      const agent = createCodingAgentRuntime({ sandboxProvider: pool, model, maxSteps: 5 });
      const result = await agent.run({ task: 'edit', setup: buggyRepo });
      expect(result.toolCalls[0]).toMatchObject({ toolCallId: 'e1', isError: true });
      expect(result.toolCalls[0]!.error).toContain('oldText was not found');
      expect(seen).toHaveLength(1);
      expect(seen[0]!.type).toBe('error-text');
      expect(seen[0]!.text).toContain('oldText was not found');
      expect(result.diff).toBe('');
    });
  });

  describe('when the step limit is reached', () => {
    it('stops after maxSteps model calls', async () => {
      const pool = localPool();
      const model = scriptedModel(
        Array.from({ length: 5 }, (_, i) => [toolCall(`s${i}`, 'exec', { command: 'true' })]),
      );
      const agent = createCodingAgentRuntime({ sandboxProvider: pool, model, maxSteps: 2 });
      const result = await agent.run({ task: 'loop' });
      expect(result.steps).toHaveLength(2);
      expect(model.doGenerateCalls).toHaveLength(2);
    });
  });

  describe('C07: one step with three parallel calls, one failing and one aborted', () => {
    it('C07: gives every call exactly one result, in order, kills the aborted command and releases the sandbox', async () => {
      const pool = localPool();
      const marker = `sleep 99.${process.pid}`;
      const model = scriptedModel([
        [
          toolCall('t1', 'read_file', { path: 'a.ts' }),
          toolCall('t2', 'read_file', { path: 'missing.ts' }),
          toolCall('t3', 'exec', { command: marker }),
        ],
        [text('never reached')],
      ]);
      const steps: AgentStep[] = [];
      const file = join(await mkdtemp(join(tmpdir(), 'sandkit-c07-')), 'calls.jsonl');
      const agent = createCodingAgentRuntime({
        sandboxProvider: pool,
        model,
        maxSteps: 5,
        record: { file },
        onStep: (s) => void steps.push(s),
      });
      const controller = new AbortController();
      // The user presses stop once both reads have finished and the command is running.
      void (async () => {
        const deadline = Date.now() + 20_000;
        while (Date.now() < deadline) {
          const done = await readFile(file, 'utf8').catch(() => '');
          if (done.split('\n').filter(Boolean).length >= 2 && processesMatching(marker).length > 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        controller.abort(new Error('user pressed stop'));
      })();
      const started = Date.now();
      const error = await agent
        .run({
          task: 'look around',
          signal: controller.signal,
          setup: (s) => s.client.writeFile('a.ts', 'export const a = 1;\n'),
        })
        .catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(25_000);
      expect(SandkitError.isInstance(error) && error.code, String((error as Error).stack)).toBe('aborted');
      expect(steps).toHaveLength(1);
      const calls = steps[0]!.toolCalls;
      expect(calls.map((c) => c.toolCallId)).toEqual(['t1', 't2', 't3']);
      expect(calls[0], calls[0]!.error).toMatchObject({
        isError: false,
        output: { kind: 'text', content: expect.stringContaining('export const a = 1;') },
      });
      expect(calls[1]!.isError).toBe(true);
      expect(calls[2]!.isError).toBe(true);
      expect(calls[2]!.error).toMatch(/abort/i);
      expect((error as SandkitError).details.toolCalls).toEqual(calls);
      expect(model.doGenerateCalls).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(processesMatching(marker)).toEqual([]);
      expect(pool.stats().inUse).toBe(0);
    });
  });

  describe('C07: when a step with parallel calls completes', () => {
    it('C07: sends the model one tool message with one result per call, in call order', async () => {
      const pool = localPool();
      let seen: ReturnType<typeof lastToolResults> = [];
      const model = scriptedModel([
        [
          toolCall('t1', 'exec', { command: 'sleep 0.4; echo slow' }),
          toolCall('t2', 'read_file', { path: 'missing.ts' }),
          toolCall('t3', 'exec', { command: 'echo fast' }),
        ],
        (o) => {
          seen = lastToolResults(o);
          return [text('ok')];
        },
      ]);
      const agent = createCodingAgentRuntime({ sandboxProvider: pool, model, maxSteps: 3 });
      await agent.run({ task: 'three at once' });
      expect(seen.map((r) => [r.id, r.type])).toEqual([
        ['t1', 'text'],
        ['t2', 'error-text'],
        ['t3', 'text'],
      ]);
      expect(seen[0]!.text).toContain('slow');
    });
  });

  describe('when the sandbox fails during a tool call', () => {
    it('stops the model, throws the SandboxError and destroys the sandbox', async () => {
      const pool = localPool();
      const dead = defineTool({
        name: 'probe',
        description: 'fails like a dead sandbox',
        permission: 'read',
        inputSchema: z.object({}),
        outputSchema: z.object({}),
        async execute() {
          throw new SandboxError({ code: SandkitErrorCode.sandboxGone, message: 'sandbox vanished' });
        },
      });
      const model = scriptedModel([[toolCall('p1', 'probe', {})], [text('should not be asked')]]);
      const agent = createCodingAgentRuntime({
        sandboxProvider: pool,
        model,
        maxSteps: 5,
        tools: () => [dead],
      });
      const error = await agent.run({ task: 'probe' }).catch((e: unknown) => e);
      expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_gone');
      expect(model.doGenerateCalls).toHaveLength(1);
      expect(pool.stats()).toMatchObject({ alive: 0, inUse: 0 });
    });
  });

  describe('when setup fails', () => {
    it('releases the sandbox and rethrows', async () => {
      const pool = localPool();
      const agent = createCodingAgentRuntime({
        sandboxProvider: pool,
        model: scriptedModel([]),
        maxSteps: 1,
      });
      const boom = new Error('clone failed');
      await expect(agent.run({ task: 't', setup: () => Promise.reject(boom) })).rejects.toBe(boom);
      expect(pool.stats().inUse).toBe(0);
    });
  });

  describe('when record is set', () => {
    it('writes each tool call and a run summary as a trajectory', async () => {
      const pool = localPool();
      const file = join(await mkdtemp(join(tmpdir(), 'sandkit-trajectory-')), 'run.jsonl');
      const model = scriptedModel([[toolCall('r1', 'exec', { command: 'echo hi' })], [text('done')]]);
      const agent = createCodingAgentRuntime({ sandboxProvider: pool, model, maxSteps: 3, record: { file } });
      const result = await agent.run({ task: 'say hi' });
      const lines = (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => l.type)).toEqual(['tool_call', 'run']);
      expect(lines[0]).toMatchObject({ callId: 'r1', tool: 'exec', output: { stdout: 'hi\n' } });
      expect(lines[1]).toMatchObject({ task: 'say hi', text: 'done', sandboxId: result.sandboxId });
    });
  });
});

function processesMatching(pattern: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}
