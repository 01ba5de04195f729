import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { APICallError } from '@ai-sdk/provider';
import type { SandboxHandle } from '@sandkit/core';
import { toAISDKTools } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { createCodingTools } from '@sandkit/tools';
import { generateText, RetryError, stepCountIs, streamText, type ToolSet } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyModelError } from '../../src/run/model/classify-model-error.js';
import { type ModelProvider, resolveModel } from '../../src/run/model/resolve-model.js';
import {
  alwaysServerErrorScript,
  contextOverflowScript,
  malformedToolCallScript,
  neverStopsScript,
  oracleScript,
  rateLimitedOnceScript,
  unknownToolScript,
} from '../../src/run/stand-in/scripts.js';
import type { StandInScript } from '../../src/run/stand-in/stand-in-types.js';
import { type ModelStandIn, startModelStandIn } from '../../src/run/stand-in/start-model-stand-in.js';

// The core tools say strict: false, which Anthropic's provider warns about once per tool per call.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((c) => c()));
});

async function standIn(script: StandInScript): Promise<ModelStandIn> {
  const server = await startModelStandIn({ script });
  cleanups.push(() => server.close());
  return server;
}

const specs: Record<ModelProvider, string> = {
  openai: 'openai:gpt-5',
  'openai-chat': 'openai-chat:gpt-4o',
  'openai-compatible': 'openai-compatible:qwen3-coder',
  anthropic: 'anthropic:claude-sonnet-4-20250514',
};
const providers = Object.keys(specs) as (keyof typeof specs)[];

function model(provider: keyof typeof specs, server: ModelStandIn) {
  return resolveModel(specs[provider], { baseURL: server.baseURL, apiKey: 'test-key', env: {} }).model;
}

const problem = 'greet() says "Helo" instead of "Hello".';
const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', '-c', 'core.autocrlf=false', ...args],
    {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, LC_ALL: 'C', GIT_CONFIG_NOSYSTEM: '1' },
    },
  );

/** A sandbox holding a committed git repo with the bug, and the real gold patch (`git diff` of the fix). */
async function buggyRepo(): Promise<{ handle: SandboxHandle; tools: ToolSet; patch: string }> {
  const handle = await createLocalSandboxAdapter().create();
  cleanups.push(() => handle.destroy());
  const dir = handle.workdir;
  await handle.client.writeFile('greet.py', 'def greet(name):\n    return f"Helo, {name}"\n');
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'init');
  await handle.client.writeFile('greet.py', 'def greet(name):\n    return f"Hello, {name}"\n');
  const patch = git(dir, 'diff', '--no-color', '--no-ext-diff');
  git(dir, 'checkout', '--', '.');
  const tools = toAISDKTools(createCodingTools(handle.client, { root: dir })) as unknown as ToolSet;
  return { handle, tools, patch };
}

const prompt = `Fix this issue in the repository:\n\n${problem}`;

describe('startModelStandIn', () => {
  describe.each(providers)('when %s is driven by the oracle script', (provider) => {
    it('applies the gold patch with apply_diff, ends with "done" and reports usage', async () => {
      const { handle, tools, patch } = await buggyRepo();
      const server = await standIn(
        oracleScript([{ instance_id: 'x__y-1', problem_statement: problem, patch }]),
      );
      const result = await generateText({
        model: model(provider, server),
        tools,
        prompt,
        stopWhen: stepCountIs(5),
      });
      expect(result.text).toBe('done');
      expect(await readFile(join(handle.workdir, 'greet.py'), 'utf8')).toContain('"Hello, {name}"');
      expect(server.requests()).toBe(2);
      expect(result.totalUsage.inputTokens).toBeGreaterThan(0);
      expect(result.totalUsage.outputTokens).toBeGreaterThan(0);
      expect(result.steps[0]?.toolCalls.map((c) => c.toolName)).toEqual(['apply_diff']);
    });

    it('says apply_diff failed when the patch does not apply', async () => {
      const { handle, tools } = await buggyRepo();
      const wrong =
        '--- a/greet.py\n+++ b/greet.py\n@@ -1,2 +1,2 @@\n def greet(name):\n-    return "nope"\n+    return "yes"\n';
      const server = await standIn(
        oracleScript([{ instance_id: 'x__y-1', problem_statement: problem, patch: wrong }]),
      );
      const result = await generateText({
        model: model(provider, server),
        tools,
        prompt,
        stopWhen: stepCountIs(5),
      });
      expect(result.text).toMatch(/^apply_diff failed: /);
      expect(await readFile(join(handle.workdir, 'greet.py'), 'utf8')).toContain('"Helo, {name}"');
    });

    it('retries a 429 (retry-after: 1) once and then succeeds', async () => {
      const { handle, tools, patch } = await buggyRepo();
      const server = await standIn(
        rateLimitedOnceScript(oracleScript([{ instance_id: 'x__y-1', problem_statement: problem, patch }])),
      );
      const result = await generateText({
        model: model(provider, server),
        tools,
        prompt,
        stopWhen: stepCountIs(5),
      });
      expect(result.text).toBe('done');
      expect(server.requests()).toBe(3);
      expect(await readFile(join(handle.workdir, 'greet.py'), 'utf8')).toContain('"Hello, {name}"');
    });

    it('ends a model that never stops at the step limit', async () => {
      const { tools } = await buggyRepo();
      const server = await standIn(neverStopsScript());
      const result = await generateText({
        model: model(provider, server),
        tools,
        prompt,
        stopWhen: stepCountIs(3),
      });
      expect(result.steps).toHaveLength(3);
      expect(server.requests()).toBe(3);
      expect(JSON.stringify(result.steps[0]?.toolResults)).toContain('step');
    });

    it.each([
      ['malformed arguments', malformedToolCallScript()],
      ['an unknown tool', unknownToolScript()],
    ])('returns %s to the model as a tool error, not a crash', async (_kind, script) => {
      const { tools } = await buggyRepo();
      const server = await standIn(script);
      const result = await generateText({
        model: model(provider, server),
        tools,
        prompt,
        stopWhen: stepCountIs(3),
      });
      expect(result.steps[0]?.content.some((part) => part.type === 'tool-error')).toBe(true);
      expect(result.text).toMatch(/^saw: /);
      expect(server.requests()).toBe(2);
    });

    it('ends in a RetryError that classifyModelError calls server_error when every request gets 500', async () => {
      const server = await standIn(alwaysServerErrorScript());
      const error = await generateText({ model: model(provider, server), prompt, maxRetries: 1 }).catch(
        (e: unknown) => e,
      );
      expect(RetryError.isInstance(error) && error.reason).toBe('maxRetriesExceeded');
      expect(classifyModelError(error)).toBe('server_error');
      expect(server.requests()).toBe(2);
    });

    it("classifies the provider's real context-overflow body as context_overflow, without retrying", async () => {
      const server = await standIn(contextOverflowScript(provider));
      const error = await generateText({ model: model(provider, server), prompt }).catch((e: unknown) => e);
      expect(APICallError.isInstance(error) && error.statusCode).toBe(400);
      expect(classifyModelError(error)).toBe('context_overflow');
      expect(server.requests()).toBe(1);
    });

    it('classifies a 401 as auth', async () => {
      const server = await standIn(() => ({ type: 'http_error', status: 401 }));
      const error = await generateText({ model: model(provider, server), prompt }).catch((e: unknown) => e);
      expect(classifyModelError(error)).toBe('auth');
    });
  });

  describe.each(providers)('when %s streams (streamText sends stream: true)', (provider) => {
    it('answers as server-sent events the provider reads, tool calls and usage included', async () => {
      const { handle, tools, patch } = await buggyRepo();
      const server = await standIn(
        oracleScript([{ instance_id: 'x__y-1', problem_statement: problem, patch }]),
      );
      const result = streamText({ model: model(provider, server), tools, prompt, stopWhen: stepCountIs(5) });
      expect(await result.text).toBe('done');
      const steps = await result.steps;
      expect(steps[0]?.toolCalls.map((c) => c.toolName)).toEqual(['apply_diff']);
      expect(steps[0]?.finishReason).toBe('tool-calls');
      const usage = await result.totalUsage;
      expect(usage.inputTokens).toBeGreaterThan(0);
      expect(usage.outputTokens).toBeGreaterThan(0);
      expect(await readFile(join(handle.workdir, 'greet.py'), 'utf8')).toContain('"Hello, {name}"');
    });

    it('streams malformed arguments as written, which the SDK turns into a tool error result', async () => {
      const { tools } = await buggyRepo();
      const server = await standIn(malformedToolCallScript());
      const result = streamText({ model: model(provider, server), tools, prompt, stopWhen: stepCountIs(3) });
      expect(await result.text).toMatch(/^saw: /);
      const first = (await result.steps)[0];
      expect(first?.content.some((part) => part.type === 'tool-error')).toBe(true);
    });
  });

  describe('when a request goes elsewhere', () => {
    it('answers 404 and does not count it as a model request', async () => {
      const server = await standIn(neverStopsScript());
      const response = await fetch(`${server.baseURL}/completions`, { method: 'POST', body: '{}' });
      expect(response.status).toBe(404);
      expect(server.requests()).toBe(0);
    });
  });
});
