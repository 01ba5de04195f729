import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineTool, type SandboxHandle, SandkitErrorCode, ToolError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordToolCalls, type ToolCallRecord } from '../../src/record/record-tool-calls.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echoes text back, repeated.',
  permission: 'read',
  inputSchema: z.object({ text: z.string(), times: z.number().int().min(1).default(1) }),
  outputSchema: z.object({ text: z.string() }),
  async execute({ text, times }) {
    if (text === 'fail') throw new ToolError({ code: SandkitErrorCode.notFound, message: 'nothing to echo' });
    return { text: text.repeat(times) };
  },
});

const handles: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.destroy()));
});

async function hostFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'sandkit-record-')), 'nested', 'calls.jsonl');
}
async function lines(path: string): Promise<ToolCallRecord[]> {
  return (await readFile(path, 'utf8'))
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as ToolCallRecord);
}

describe('recordToolCalls', () => {
  describe('when writing to a host file', () => {
    it('appends one JSON line per call with input, output, duration and call id, returning the same output', async () => {
      const file = await hostFile();
      const [tool] = recordToolCalls([echo], { file });
      const output = await tool!.call({ text: 'ab', times: 2 }, { toolCallId: 'call_1' });
      expect(output).toEqual({ text: 'abab' });
      await tool!.call({ text: 'x' });
      const records = await lines(file);
      expect(records).toHaveLength(2);
      expect(records[0]).toMatchObject({
        type: 'tool_call',
        callId: 'call_1',
        tool: 'echo',
        input: { text: 'ab', times: 2 },
        output: { text: 'abab' },
      });
      expect(records[0]!.durationMs).toBeGreaterThanOrEqual(0);
      expect(records[1]!.callId).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('records the error and rethrows the very same error object', async () => {
      const file = await hostFile();
      const [tool] = recordToolCalls([echo], { file });
      const thrown = await tool!.call({ text: 'fail' }, { toolCallId: 'c2' }).catch((e: unknown) => e);
      expect(ToolError.isInstance(thrown) && thrown.code).toBe('not_found');
      const invalid = await tool!.call({ text: 3 }, { toolCallId: 'c3' }).catch((e: unknown) => e);
      expect((invalid as Error).name).toBe('ToolArgumentError');
      const records = await lines(file);
      expect(records[0]).toMatchObject({
        callId: 'c2',
        error: { name: 'ToolError', code: 'not_found', message: 'nothing to echo' },
      });
      expect(records[0]).not.toHaveProperty('output');
      expect(records[1]).toMatchObject({ callId: 'c3', error: { code: 'invalid_arguments' } });
    });
  });

  describe('when given a redact hook', () => {
    it('writes what redact returns and does not change the output the caller gets', async () => {
      const file = await hostFile();
      const [tool] = recordToolCalls([echo], {
        file,
        redact: (record) => {
          (record.output as { text: string }).text = '[redacted]';
          return record;
        },
      });
      const output = await tool!.call({ text: 'secret' });
      expect(output).toEqual({ text: 'secret' });
      expect((await lines(file))[0]!.output).toEqual({ text: '[redacted]' });
    });

    it('drops a record when redact returns null or throws, never writing it unredacted', async () => {
      const file = await hostFile();
      const errors: unknown[] = [];
      const [tool] = recordToolCalls([echo], {
        file,
        onError: (e) => errors.push(e),
        redact: (record) => {
          const text = (record.input as { text: string }).text;
          if (text === 'drop') return null;
          if (text === 'boom') throw new Error('redactor crashed');
          return record;
        },
      });
      await tool!.call({ text: 'drop' });
      await expect(tool!.call({ text: 'boom' })).resolves.toEqual({ text: 'boom' });
      await tool!.call({ text: 'kept' });
      const records = await lines(file);
      expect(records.map((r) => (r.input as { text: string }).text)).toEqual(['kept']);
      expect(await readFile(file, 'utf8')).not.toContain('boom');
      expect(errors).toHaveLength(1);
    });
  });

  describe('when writing into the sandbox', () => {
    it('appends to <sandboxDir>/index.jsonl and puts large outputs in separate files', async () => {
      const handle = await createLocalSandboxAdapter().create();
      handles.push(handle);
      const sandboxDir = `${handle.workdir}/.trajectory`;
      const [tool] = recordToolCalls([echo], {
        sandboxDir,
        client: handle.client,
        maxInlineOutputBytes: 100,
      });
      await tool!.call({ text: 'small' }, { toolCallId: 'c1' });
      await tool!.call({ text: 'y', times: 500 }, { toolCallId: 'c/2' });
      const index = await lines(join(sandboxDir, 'index.jsonl'));
      expect(index[0]).toMatchObject({ callId: 'c1', output: { text: 'small' } });
      expect(index[1]).toMatchObject({ callId: 'c/2', outputFile: 'outputs/c_2.json' });
      expect(index[1]).not.toHaveProperty('output');
      const big = JSON.parse(await readFile(join(sandboxDir, 'outputs/c_2.json'), 'utf8')) as {
        text: string;
      };
      expect(big.text).toHaveLength(500);
    });
  });

  it('throws invalid_option without a destination', () => {
    expect(() => recordToolCalls([echo], {})).toThrow(/give file, sandboxDir/);
  });
});
