import Anthropic from '@anthropic-ai/sdk';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { beforeAll, describe, expect, it } from 'vitest';
import { toAnthropicToolResultMessage } from '../src/anthropic-tool-results.js';
import type { Tool } from '../src/define-tool.js';
import { SandboxError } from '../src/errors/sandbox-error.js';
import { executeToolCalls } from '../src/execute-tool-calls.js';
import { toOpenAIChatToolMessages } from '../src/openai-chat-tool-messages.js';
import { toOpenAIResponsesToolOutputs } from '../src/openai-responses-tool-outputs.js';
import type { ToolCallResult } from '../src/tool-call-result.js';
import { createExecTool, createFailingTool, createReadFileTool } from './test-tools.js';

/** A 1×1 PNG. */
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

let tools: Tool[];
beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'sandkit-core-'));
  await writeFile(join(root, 'a.ts'), 'export const a = 1;\n');
  await writeFile(join(root, 'shot.png'), png);
  tools = [createReadFileTool(root), createExecTool(), createFailingTool()];
});

/** The assistant turn of C07, in the Anthropic shape, plus a text block the model wrote first. */
const anthropicTurn = [
  { type: 'text' as const, text: 'Reading both files and running the command.' },
  { type: 'tool_use' as const, id: 't1', name: 'read_file', input: { path: 'a.ts' } },
  { type: 'tool_use' as const, id: 't2', name: 'read_file', input: { path: 'shot.png' } },
  { type: 'tool_use' as const, id: 't3', name: 'exec', input: { command: 'sleep 99' } },
];
const toolUses = anthropicTurn.filter((block) => block.type === 'tool_use');

/** The user aborts the turn after 2 s (as in C07): t1 and t2 are done by then, t3 (`sleep 99`) is not. */
async function runC07Turn() {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 2_000);
  return executeToolCalls(tools, toolUses, { signal: controller.signal });
}

let turn: Promise<ToolCallResult[]> | undefined;
/** The C07 turn, run once and shared by the converter tests. */
function c07Results(): Promise<ToolCallResult[]> {
  turn ??= runC07Turn();
  return turn;
}

/** Records whether the SDK sent a request (it must not, when the history is incomplete). */
function countingFetch(counter: { requests: number }, body: unknown) {
  return async () => {
    counter.requests++;
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  };
}

describe('executeToolCalls', () => {
  it('C07: returns exactly one result per call in call order, the aborted one as "aborted"', async () => {
    const started = Date.now();
    const results = await c07Results();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(results.map((r) => [r.callId, r.isError])).toEqual([
      ['t1', false],
      ['t2', false],
      ['t3', true],
    ]);
    expect(results[2]?.error?.code).toBe('aborted');
  });

  it('C07: keeps call order when later calls finish first, and answers a thrown handler', async () => {
    const results = await executeToolCalls(tools, [
      { name: 'exec', input: { command: 'sleep 0.3; echo slow' }, id: 'slow' },
      { name: 'fail', input: { mode: 'bug' }, id: 'thrown' },
      { name: 'nope', input: {}, id: 'unknown' },
      { id: 'badjson', type: 'function', function: { name: 'exec', arguments: '{' } },
      { name: 'exec', input: { command: 'echo fast' }, id: 'fast' },
    ]);
    expect(results.map((r) => `${r.callId}:${r.error?.code ?? 'ok'}`)).toEqual([
      'slow:ok',
      'thrown:internal',
      'unknown:unknown_tool',
      'badjson:invalid_arguments',
      'fast:ok',
    ]);
  });

  it('C07: lets every call settle, then throws a SandboxError by default', async () => {
    const started = Date.now();
    const error = await executeToolCalls(tools, [
      { name: 'fail', input: { mode: 'sandbox' }, id: 's' },
      { name: 'exec', input: { command: 'sleep 0.3' }, id: 'other' },
    ]).catch((e: unknown) => e);
    expect(SandboxError.isInstance(error)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it("C07: answers a SandboxError call with an error result under operatorErrors: 'result'", async () => {
    const results = await executeToolCalls(
      tools,
      [
        { name: 'fail', input: { mode: 'sandbox' }, id: 's' },
        { name: 'exec', input: { command: 'true' }, id: 'other' },
      ],
      { operatorErrors: 'result' },
    );
    expect(results.map((r) => r.error?.code ?? 'ok')).toEqual(['sandbox_gone', 'ok']);
  });
});

describe('toAnthropicToolResultMessage', () => {
  it('C07: builds one user message starting with the three tool_result blocks, image inside t2, text last', async () => {
    const results = await c07Results();
    const message = toAnthropicToolResultMessage(results, { calls: anthropicTurn, text: 'Continue.' });
    expect(message.role).toBe('user');
    expect(
      message.content.map((b) => (b.type === 'tool_result' ? `${b.tool_use_id}:${b.is_error}` : b.type)),
    ).toEqual(['t1:false', 't2:false', 't3:true', 'text']);
    expect(message.content[1]).toEqual({
      type: 'tool_result',
      tool_use_id: 't2',
      is_error: false,
      content: [
        { type: 'text', text: `PNG, ${png.length} bytes` },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } },
      ],
    });
    expect(message.content[2]).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('aborted') }],
    });
    expect(message.content[3]).toEqual({ type: 'text', text: 'Continue.' });
  });

  it('C07: puts results in the order of the calls whatever order they are given in', async () => {
    const results = await c07Results();
    const message = toAnthropicToolResultMessage([results[2]!, results[0]!, results[1]!], {
      calls: anthropicTurn,
    });
    expect(message.content.map((b) => (b.type === 'tool_result' ? b.tool_use_id : b.type))).toEqual([
      't1',
      't2',
      't3',
    ]);
  });

  it('C07: throws incomplete_tool_results before the HTTP call when a call has no result', async () => {
    const results = await c07Results();
    const counter = { requests: 0 };
    const client = new Anthropic({ apiKey: 'test-key', fetch: countingFetch(counter, { content: [] }) });
    const send = () =>
      client.messages.create({
        model: 'claude-test',
        max_tokens: 10,
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: anthropicTurn },
          toAnthropicToolResultMessage(results.slice(0, 2), { calls: anthropicTurn }),
        ],
      });
    expect(send).toThrow(expect.objectContaining({ code: 'incomplete_tool_results' }));
    expect(send).toThrow('tool call t3 has no result');
    expect(counter.requests).toBe(0);
    await client.messages.create({
      model: 'claude-test',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: anthropicTurn },
        toAnthropicToolResultMessage(results, { calls: anthropicTurn }),
      ],
    });
    expect(counter.requests).toBe(1);
  });

  it('C07: names duplicate results and results that answer no call', async () => {
    const results = await c07Results();
    expect(() => toAnthropicToolResultMessage([...results, results[0]!], { calls: anthropicTurn })).toThrow(
      'tool call t1 has 2 results',
    );
    expect(() => toAnthropicToolResultMessage(results, { calls: ['t1', 't2'] })).toThrow(
      'result t3 (exec) answers no call of this turn',
    );
  });
});

describe('toOpenAIChatToolMessages', () => {
  it('C07: gives three consecutive tool messages, then the image in one user message after the last', async () => {
    const results = await c07Results();
    const toolCalls = toolUses.map((use) => ({
      id: use.id,
      type: 'function' as const,
      function: { name: use.name, arguments: JSON.stringify(use.input) },
    }));
    const messages = toOpenAIChatToolMessages(results, { calls: toolCalls });
    expect(messages.map((m) => (m.role === 'tool' ? `tool:${m.tool_call_id}` : m.role))).toEqual([
      'tool:t1',
      'tool:t2',
      'tool:t3',
      'user',
    ]);
    expect(messages[0]).toEqual({ role: 'tool', tool_call_id: 't1', content: 'export const a = 1;\n' });
    expect(messages[1]).toEqual({
      role: 'tool',
      tool_call_id: 't2',
      content: `PNG, ${png.length} bytes\n[image (image/png) attached in the next message]`,
    });
    expect(messages[2]).toMatchObject({ content: expect.stringMatching(/^Error: .*aborted/) });
    expect(messages[3]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Attachments of tool call t2 (read_file):' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${png.toString('base64')}` } },
      ],
    });
    const counter = { requests: 0 };
    const client = new OpenAI({ apiKey: 'k', fetch: countingFetch(counter, { choices: [] }) });
    expect(() => toOpenAIChatToolMessages(results.slice(1), { calls: toolCalls })).toThrow(
      'tool call t1 has no result',
    );
    await client.chat.completions.create({
      model: 'gpt-test',
      messages: [{ role: 'assistant', content: null, tool_calls: toolCalls }, ...messages],
    });
    expect(counter.requests).toBe(1);
  });
});

describe('toOpenAIResponsesToolOutputs', () => {
  it('C07: gives one function_call_output per call_id, the image as input_image', async () => {
    const results = await c07Results();
    const output = toolUses.map((use) => ({
      type: 'function_call' as const,
      call_id: use.id,
      name: use.name,
      arguments: JSON.stringify(use.input),
    }));
    const items = toOpenAIResponsesToolOutputs(results, { calls: [{ type: 'reasoning' }, ...output] });
    expect(items.map((i) => i.call_id)).toEqual(['t1', 't2', 't3']);
    expect(items[0]).toEqual({
      type: 'function_call_output',
      call_id: 't1',
      output: 'export const a = 1;\n',
    });
    expect(items[1]?.output).toEqual([
      { type: 'input_text', text: `PNG, ${png.length} bytes` },
      { type: 'input_image', image_url: `data:image/png;base64,${png.toString('base64')}`, detail: 'auto' },
    ]);
    expect(items[2]?.output).toMatch(/^Error: .*aborted/);
    expect(() => toOpenAIResponsesToolOutputs(results.slice(0, 1), { calls: output })).toThrow(
      'tool call t2 has no result; tool call t3 has no result',
    );
  });
});
