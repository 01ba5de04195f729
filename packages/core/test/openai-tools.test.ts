import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/define-tool.js';
import { SandkitError } from '../src/errors/sandkit-error.js';
import { executeToolCall } from '../src/execute-tool-call.js';
import { toOpenAITools } from '../src/openai-tools.js';
import { toStrictJsonSchema } from '../src/strict-json-schema.js';
import { strictViolations } from './strict-violations.js';

/** The read_file of C05: `path` required, `offset` and `limit` optional integers. */
function readFileTool(seen: unknown[]) {
  return defineTool({
    name: 'read_file',
    description: 'Read a file.',
    permission: 'read',
    inputSchema: z.object({
      path: z.string(),
      offset: z.number().int().optional(),
      limit: z.number().int().optional(),
    }),
    outputSchema: z.object({ ok: z.boolean() }),
    async execute(input) {
      seen.push(input);
      return { ok: true };
    },
  });
}

const c05Strict = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    offset: { type: ['integer', 'null'] },
    limit: { type: ['integer', 'null'] },
  },
  required: ['path', 'offset', 'limit'],
  additionalProperties: false,
};

/** An OpenAI client whose fetch records the request body instead of sending it. */
function recordingClient(bodies: unknown[]): OpenAI {
  return new OpenAI({
    apiKey: 'test-key',
    fetch: async (_url, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ id: 'x', object: 'response', output: [] }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
}

describe('toOpenAITools', () => {
  describe('when strict is not given', () => {
    it('C05: sets strict: false explicitly on Responses tools and sends the schema as it is', async () => {
      const tools = toOpenAITools([readFileTool([])], { api: 'responses' });
      expect(tools).toEqual([
        {
          type: 'function',
          name: 'read_file',
          description: 'Read a file.',
          strict: false,
          parameters: {
            type: 'object',
            properties: { path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
            required: ['path'],
          },
        },
      ]);
      const bodies: unknown[] = [];
      await recordingClient(bodies).responses.create({ model: 'gpt-test', input: 'hi', tools });
      expect(bodies[0]).toMatchObject({ tools: [{ name: 'read_file', strict: false }] });
    });

    it('C05: sets strict: false explicitly on Chat tools', () => {
      const [tool] = toOpenAITools([readFileTool([])], { api: 'chat' });
      expect(tool).toEqual({
        type: 'function',
        function: {
          name: 'read_file',
          description: 'Read a file.',
          strict: false,
          parameters: expect.objectContaining({ required: ['path'] }),
        },
      });
    });
  });

  describe('when strict: true', () => {
    it('C05 (responses): rewrites optional keys as nullable and turns null back into absent before the tool runs', async () => {
      const seen: unknown[] = [];
      const tools = [readFileTool(seen)];
      const [definition] = toOpenAITools(tools, { api: 'responses', strict: true });
      expect(definition).toMatchObject({ strict: true, parameters: c05Strict });
      const result = await executeToolCall(tools, {
        type: 'function_call',
        call_id: 'call_1',
        name: 'read_file',
        arguments: '{"path":"a.ts","offset":null,"limit":null}',
      });
      expect(result.isError).toBe(false);
      expect(seen).toEqual([{ path: 'a.ts' }]);
      expect(Object.keys(seen[0] as object)).toEqual(['path']);
    });

    it('C05 (chat): rewrites optional keys as nullable and turns null back into absent before the tool runs', async () => {
      const seen: unknown[] = [];
      const tools = [readFileTool(seen)];
      const [definition] = toOpenAITools(tools, { api: 'chat', strict: true });
      expect(definition?.function).toMatchObject({ strict: true, parameters: c05Strict });
      const bodies: unknown[] = [];
      await recordingClient(bodies).chat.completions.create({
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'hi' }],
        tools: toOpenAITools(tools, { api: 'chat', strict: true }),
      });
      expect(bodies[0]).toMatchObject({ tools: [{ function: { strict: true, parameters: c05Strict } }] });
      const result = await executeToolCall(tools, {
        id: 'call_2',
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"b.ts","offset":5,"limit":null}' },
      });
      expect(result.isError).toBe(false);
      expect(seen).toEqual([{ path: 'b.ts', offset: 5 }]);
    });

    it('C05: makes every nested object strict, keeps real nullables and turns oneOf into anyOf', async () => {
      const seen: unknown[] = [];
      const tool = defineTool({
        name: 'edit',
        description: 'Edit.',
        permission: 'write',
        inputSchema: z.object({
          edits: z.array(
            z.object({ oldText: z.string(), newText: z.string(), replaceAll: z.boolean().default(false) }),
          ),
          range: z.object({ start: z.number().int(), end: z.number().int().optional() }).optional(),
          mode: z.enum(['a', 'b']).optional(),
          note: z.string().nullable(),
          op: z
            .discriminatedUnion('op', [
              z.object({ op: z.literal('read') }),
              z.object({ op: z.literal('write'), text: z.string().optional() }),
            ])
            .optional(),
        }),
        outputSchema: z.object({}),
        async execute(input) {
          seen.push(input);
          return {};
        },
      });
      const [definition] = toOpenAITools([tool], { api: 'responses', strict: true });
      expect(strictViolations(definition?.parameters)).toEqual([]);
      expect(definition?.parameters.properties.mode).toEqual({
        type: ['string', 'null'],
        enum: ['a', 'b', null],
      });
      expect(definition?.parameters.properties.note).toEqual({ type: ['string', 'null'] });
      const args = {
        edits: [{ oldText: 'x', newText: 'y', replaceAll: null }],
        range: { start: 1, end: null },
        mode: null,
        note: null,
        op: { op: 'write', text: null },
      };
      const result = await executeToolCall([tool], { name: 'edit', input: args });
      expect(result.isError).toBe(false);
      expect(seen).toEqual([
        {
          edits: [{ oldText: 'x', newText: 'y', replaceAll: false }],
          range: { start: 1 },
          note: null,
          op: { op: 'write' },
        },
      ]);
    });

    it('C05: leaves out keywords strict mode rejects, moves defaults into the description, and still enforces them', async () => {
      const seen: unknown[] = [];
      const tool = defineTool({
        name: 'grep',
        description: 'Search.',
        permission: 'read',
        inputSchema: z.object({
          pattern: z.string().min(1).max(200).describe('Regex.'),
          ignoreCase: z.boolean().default(false).describe('Ignore case.'),
          id: z.cuid().optional(),
          when: z.iso.datetime().optional(),
        }),
        outputSchema: z.object({}),
        async execute(input) {
          seen.push(input);
          return {};
        },
      });
      const [definition] = toOpenAITools([tool], { api: 'responses', strict: true });
      expect(strictViolations(definition?.parameters)).toEqual([]);
      expect(definition?.parameters.properties).toMatchObject({
        pattern: { type: 'string', description: 'Regex.' },
        ignoreCase: { type: ['boolean', 'null'], description: 'Ignore case. Default: false.' },
        when: { format: 'date-time' },
      });
      expect(definition?.parameters.properties.pattern).not.toHaveProperty('minLength');
      expect(definition?.parameters.properties.id).not.toHaveProperty('format');
      const bad = await executeToolCall([tool], {
        type: 'function_call',
        call_id: 'g1',
        name: 'grep',
        arguments: '{"pattern":"","ignoreCase":null,"id":null,"when":null}',
      });
      expect(bad.error?.code).toBe('invalid_arguments');
      expect(bad.content[0]).toMatchObject({ text: expect.stringMatching(/- pattern: .*>=1 characters/) });
      const good = await executeToolCall([tool], {
        type: 'function_call',
        call_id: 'g2',
        name: 'grep',
        arguments: '{"pattern":"x","ignoreCase":null,"id":null,"when":null}',
      });
      expect(good.isError).toBe(false);
      expect(seen).toEqual([{ pattern: 'x', ignoreCase: false }]);
    });

    it('C05: refuses z.record (a free-form map) with a message naming the tool and the path', () => {
      const tool = defineTool({
        name: 'set_env',
        description: 'Set variables.',
        permission: 'exec',
        inputSchema: z.object({ env: z.record(z.string(), z.string()) }),
        outputSchema: z.object({}),
        execute: async () => ({}),
      });
      expect(toOpenAITools([tool], { api: 'chat' })).toHaveLength(1);
      let error: unknown;
      try {
        toOpenAITools([tool], { api: 'responses', strict: true });
      } catch (caught) {
        error = caught;
      }
      expect(SandkitError.isInstance(error) && error.code).toBe('invalid_schema');
      expect((error as Error).message).toBe(
        'Tool "set_env" cannot be sent in OpenAI strict mode: a free-form map (z.record) is not supported; strict mode needs fixed keys at /env. Use strict: false for this tool, or change the schema.',
      );
    });

    it('refuses loose objects and untyped values too', () => {
      const loose = {
        type: 'object',
        properties: { a: { type: 'object', properties: {}, additionalProperties: {} } },
        required: [],
      } as const;
      expect(() => toStrictJsonSchema('t', structuredClone(loose) as never)).toThrow(/free-form map/);
      const untyped = { type: 'object', properties: { a: {} }, required: ['a'] } as const;
      expect(() => toStrictJsonSchema('t', structuredClone(untyped) as never)).toThrow(/any type/);
    });
  });

  it('rejects an unknown api with invalid_option', () => {
    expect(() => toOpenAITools([], { api: 'completions' as 'chat' })).toThrow(
      expect.objectContaining({ code: 'invalid_option' }),
    );
  });
});
