import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs, type ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { toAISDKTools } from '../src/ai-sdk-tools.js';
import type { Tool } from '../src/define-tool.js';
import { SandboxError } from '../src/errors/sandbox-error.js';
import { createExecTool, createFailingTool, createReadFileTool, seenInputs } from './test-tools.js';

/** What a mock model's doGenerate returns (the provider spec type, without depending on @ai-sdk/provider). */
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function toolCallsStep(calls: Array<[string, string, unknown]>): LanguageModelV3GenerateResult {
  return {
    content: calls.map(([toolCallId, toolName, input]) => ({
      type: 'tool-call',
      toolCallId,
      toolName,
      input: JSON.stringify(input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_use' },
    usage,
    warnings: [],
  };
}
const doneStep: LanguageModelV3GenerateResult = {
  content: [{ type: 'text', text: 'done' }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
};

let tools: Tool[];
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'sandkit-core-'));
  await writeFile(join(root, 'a.ts'), 'const a = 1;');
  await writeFile(join(root, 'shot.png'), png);
  tools = [createReadFileTool(root), createExecTool(), createFailingTool()];
});

describe('toAISDKTools', () => {
  it('sends our self-contained schemas with an explicit strict flag to the model', async () => {
    const model = new MockLanguageModelV3({ doGenerate: [doneStep] });
    const set: ToolSet = toAISDKTools(tools);
    await generateText({ model, prompt: 'hi', tools: set });
    const sent = model.doGenerateCalls[0]?.tools ?? [];
    expect(sent.map((t) => t.name)).toEqual(['read_file', 'exec', 'fail']);
    expect(sent[0]).toMatchObject({
      type: 'function',
      name: 'read_file',
      description: 'Read a file.',
      strict: false,
      inputSchema: {
        type: 'object',
        required: ['path'],
        properties: { path: { type: 'string' }, offset: { type: 'integer', minimum: 1 } },
      },
    });
    expect(JSON.stringify(sent)).not.toMatch(/"\$(ref|defs|schema)"/);
  });

  it('C08: runs the tools in generateText; images reach the model as media, errors as error results', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallsStep([
          ['c1', 'read_file', { path: 'shot.png' }],
          ['c2', 'read_file', { path: 'missing.ts' }],
          ['c3', 'read_file', { path: 7 }],
          ['c4', 'exec', { command: 'printf hi' }],
        ]),
        doneStep,
      ],
    });
    const result = await generateText({
      model,
      prompt: 'go',
      tools: toAISDKTools(tools),
      stopWhen: stepCountIs(3),
    });
    expect(result.text).toBe('done');
    const prompt = model.doGenerateCalls[1]?.prompt ?? [];
    const toolMessage = prompt.find((m) => m.role === 'tool');
    const outputs = Object.fromEntries(
      (toolMessage?.content ?? []).flatMap((part) =>
        part.type === 'tool-result' ? [[part.toolCallId, part.output]] : [],
      ),
    );
    expect(outputs.c1).toEqual({
      type: 'content',
      value: [
        { type: 'text', text: `PNG, ${png.length} bytes` },
        { type: 'image-data', data: png.toString('base64'), mediaType: 'image/png' },
      ],
    });
    expect(outputs.c2).toEqual({
      type: 'error-text',
      value: 'File missing.ts does not exist; list the directory to find the right name.',
    });
    expect(outputs.c3).toMatchObject({ type: 'error-text', value: expect.stringContaining('- path:') });
    expect(outputs.c4).toEqual({ type: 'text', value: '{"exitCode":0,"stdout":"hi"}' });
  });

  it('C05: with strict: true sends the strict schema and drops the nulls before the tool runs', async () => {
    seenInputs.length = 0;
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallsStep([['c1', 'read_file', { path: 'a.ts', offset: null, limit: null }]]),
        doneStep,
      ],
    });
    await generateText({
      model,
      prompt: 'go',
      tools: toAISDKTools(tools, { strict: true }),
      stopWhen: stepCountIs(3),
    });
    expect(model.doGenerateCalls[0]?.tools?.[0]).toMatchObject({
      strict: true,
      inputSchema: {
        required: ['path', 'offset', 'limit'],
        properties: { offset: { type: ['integer', 'null'] } },
      },
    });
    expect(seenInputs).toEqual([{ path: 'a.ts' }]);
  });

  it('keeps a SandboxError object on the tool-error part so the loop can stop', async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallsStep([['c1', 'fail', { mode: 'sandbox' }]]), doneStep],
    });
    const result = await generateText({ model, prompt: 'go', tools: toAISDKTools(tools) });
    const errorPart = result.steps[0]?.content.find((part) => part.type === 'tool-error');
    expect(errorPart && SandboxError.isInstance(errorPart.error)).toBe(true);
  });
});
