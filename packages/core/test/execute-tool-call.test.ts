import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/define-tool.js';
import { SandboxError } from '../src/errors/sandbox-error.js';
import { SandkitError } from '../src/errors/sandkit-error.js';
import { ToolArgumentError } from '../src/errors/tool-argument-error.js';
import { executeToolCall } from '../src/execute-tool-call.js';
import { createExecTool, createFailingTool, createReadFileTool, seenInputs } from './test-tools.js';

let root: string;
let tools: ReturnType<typeof createReadFileTool>[];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sandkit-core-'));
  await writeFile(join(root, 'a.ts'), 'one\ntwo\nthree\nfour\n');
  tools = [createReadFileTool(root), createExecTool(), createFailingTool()];
});
beforeEach(() => {
  seenInputs.length = 0;
});

describe('executeToolCall', () => {
  describe('when given each provider call shape', () => {
    it('runs an Anthropic tool_use block', async () => {
      const result = await executeToolCall(tools, {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'read_file',
        input: { path: 'a.ts', limit: 2 },
      });
      expect(result).toMatchObject({ callId: 'toolu_1', toolName: 'read_file', isError: false });
      expect(result.content).toEqual([{ type: 'text', text: 'one\ntwo' }]);
    });

    it('runs an OpenAI chat tool call whose arguments are a JSON string', async () => {
      const result = await executeToolCall(tools, {
        id: 'call_1',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"a.ts","offset":3}' },
      });
      expect(result).toMatchObject({ callId: 'call_1', isError: false, output: { text: 'three\nfour\n' } });
    });

    it('runs a Responses function_call item and answers with its call_id, not its item id', async () => {
      const result = await executeToolCall(tools, {
        type: 'function_call',
        id: 'fc_item',
        call_id: 'call_r',
        name: 'exec',
        arguments: '{"command":"printf hi"}',
      });
      expect(result).toMatchObject({
        callId: 'call_r',
        isError: false,
        output: { exitCode: 0, stdout: 'hi' },
      });
    });

    it('parses a tool_use input that is still a JSON string (accumulated from a stream)', async () => {
      const result = await executeToolCall(tools, {
        type: 'tool_use',
        id: 'toolu_2',
        name: 'read_file',
        input: '{"path":"a.ts","limit":1}',
      });
      expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'one' }] });
    });

    it('runs a plain { name, input, id } call and takes empty arguments as {}', async () => {
      const plain = await executeToolCall(tools, { name: 'read_file', input: { path: 'a.ts' }, id: 'p1' });
      expect(plain.callId).toBe('p1');
      const empty = await executeToolCall(tools, {
        type: 'function_call',
        call_id: 'c',
        name: 'read_file',
        arguments: '',
      });
      expect(empty.isError).toBe(true);
      expect(empty.content[0]).toMatchObject({ text: expect.stringContaining('- path:') });
    });
  });

  describe('when the call is wrong', () => {
    it('returns an unknown_tool error result listing the available names', async () => {
      const result = await executeToolCall(tools, { name: 'read_fil', input: {}, id: 'x' });
      expect(result.isError).toBe(true);
      expect(result.error?.code).toBe('unknown_tool');
      expect(result.content[0]).toEqual({
        type: 'text',
        text: 'Unknown tool "read_fil". Available tools: read_file, exec, fail. Call one of these by its exact name.',
      });
    });

    it('returns a ToolArgumentError result for malformed JSON, saying how to fix it', async () => {
      const result = await executeToolCall(tools, {
        id: 'c1',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path": "a.ts"' },
      });
      expect(ToolArgumentError.isInstance(result.error)).toBe(true);
      expect(result.error?.code).toBe('invalid_arguments');
      expect(result.content[0]?.type === 'text' && result.content[0].text).toMatch(
        /^The arguments for tool "read_file" are not valid JSON \(.+\)\. Send the arguments as one JSON object/,
      );
      expect(seenInputs).toEqual([]);
    });

    it('returns a ToolArgumentError result with each issue by path on a schema mismatch', async () => {
      const result = await executeToolCall(tools, {
        name: 'read_file',
        input: { path: 3, limit: 0 },
        id: 'c2',
      });
      expect(ToolArgumentError.isInstance(result.error)).toBe(true);
      const text = result.content[0]?.type === 'text' ? result.content[0].text : '';
      expect(text).toContain('Invalid arguments for tool "read_file"');
      expect(text).toMatch(/- path: .*string/i);
      expect(text).toMatch(/- limit: /);
      expect(text).toContain('Fix these fields and call the tool again.');
      expect((result.error as ToolArgumentError).issues.map((i) => i.path.join('.'))).toEqual([
        'path',
        'limit',
      ]);
    });
  });

  describe('when the tool fails', () => {
    it('returns a ToolError as an error result with its code and message', async () => {
      const result = await executeToolCall(tools, {
        name: 'read_file',
        input: { path: 'missing.ts' },
        id: 'm',
      });
      expect(result).toMatchObject({ isError: true, error: { code: 'not_found' } });
      expect(result.content).toEqual([
        { type: 'text', text: 'File missing.ts does not exist; list the directory to find the right name.' },
      ]);
    });

    it('throws a SandboxError to the operator by default', async () => {
      const call = { name: 'fail', input: { mode: 'sandbox' }, id: 's' };
      const error = await executeToolCall(tools, call).catch((e: unknown) => e);
      expect(SandboxError.isInstance(error)).toBe(true);
      expect((error as SandboxError).code).toBe('sandbox_gone');
    });

    it("returns a SandboxError as an error result with operatorErrors: 'result'", async () => {
      const result = await executeToolCall(
        tools,
        { name: 'fail', input: { mode: 'sandbox' }, id: 's' },
        { operatorErrors: 'result' },
      );
      expect(result.isError).toBe(true);
      expect(SandboxError.isInstance(result.error)).toBe(true);
    });

    it('returns an internal error result keeping the cause when the handler throws a plain error', async () => {
      const result = await executeToolCall(tools, { name: 'fail', input: { mode: 'bug' }, id: 'b' });
      expect(result.error?.code).toBe('internal');
      expect(result.error?.cause).toBeInstanceOf(TypeError);
      expect(result.content[0]).toMatchObject({
        text: expect.stringContaining('cannot read properties of undefined'),
      });
    });

    it('returns an invalid_output error result when the tool breaks its output schema', async () => {
      const result = await executeToolCall(tools, { name: 'fail', input: { mode: 'output' }, id: 'o' });
      expect(result.error?.code).toBe('invalid_output');
    });

    it('rejects a bad operatorErrors option', async () => {
      const call = { name: 'fail', input: { mode: 'tool' } };
      await expect(
        executeToolCall(tools, call, { operatorErrors: 'ignore' as 'throw' }),
      ).rejects.toMatchObject({
        code: 'invalid_option',
      });
    });
  });

  describe('when aborted', () => {
    it('kills the command and returns an "aborted" error result', async () => {
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 150);
      const result = await executeToolCall(
        tools,
        { name: 'exec', input: { command: 'exec sleep 31.25' }, id: 't3' },
        { signal: controller.signal },
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(result).toMatchObject({ callId: 't3', isError: true, error: { code: 'aborted' } });
      expect(result.content[0]).toMatchObject({ text: expect.stringContaining('aborted') });
      // the process is gone soon after (pgrep exit 1 = no process matched)
      let status: number | null = 0;
      for (let i = 0; i < 40 && status !== 1; i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = spawnSync('pgrep', ['-f', 'sleep 31.25']).status;
      }
      expect(status).toBe(1);
    });

    it('returns at once even when the tool ignores the signal', async () => {
      const stubborn = defineTool({
        name: 'stubborn',
        description: 'Ignores aborts.',
        permission: 'read',
        inputSchema: z.object({}),
        outputSchema: z.object({}),
        execute: () => new Promise<Record<string, never>>((resolve) => setTimeout(() => resolve({}), 3_000)),
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const started = Date.now();
      const result = await executeToolCall(
        [stubborn],
        { name: 'stubborn', input: {} },
        { signal: controller.signal },
      );
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(result.error?.code).toBe('aborted');
    });

    it('does not start the tool when the signal is already aborted', async () => {
      const result = await executeToolCall(
        tools,
        { name: 'read_file', input: { path: 'a.ts' } },
        { signal: AbortSignal.abort() },
      );
      expect(result.error?.code).toBe('aborted');
      expect(seenInputs).toEqual([]);
    });
  });

  it('throws invalid_option when two tools share a name', async () => {
    const error = await executeToolCall([tools[0]!, tools[0]!], { name: 'read_file', input: {} }).catch(
      (e: unknown) => e,
    );
    expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
  });
});
