import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAISDKTools } from '../src/ai-sdk-tools.js';
import { toAnthropicTools } from '../src/anthropic-tools.js';
import { defineTool, type Tool } from '../src/define-tool.js';
import { SandkitError } from '../src/errors/sandkit-error.js';
import { toOpenAITools } from '../src/openai-tools.js';
import { toToolJsonSchema } from '../src/tool-json-schema.js';
import { strictViolations } from './strict-violations.js';

const forbidden = new Set(['$ref', '$defs', 'definitions', '$schema', '$id', '$dynamicRef', '$anchor']);

/** Every forbidden key anywhere in the tree, with its path. */
function forbiddenKeys(node: unknown, path = '#'): string[] {
  if (typeof node !== 'object' || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((item, i) => forbiddenKeys(item, `${path}/${i}`));
  return Object.entries(node).flatMap(([key, value]) => [
    ...(forbidden.has(key) ? [`${path}/${key}`] : []),
    ...forbiddenKeys(value, `${path}/${key}`),
  ]);
}

/** The root rules of C04: type object, properties and required, no combinator. */
function rootProblems(schema: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (schema.type !== 'object') problems.push('type is not object');
  if (typeof schema.properties !== 'object' || schema.properties === null) problems.push('no properties');
  if (!Array.isArray(schema.required)) problems.push('no required');
  for (const key of ['oneOf', 'anyOf', 'allOf', 'not']) if (key in schema) problems.push(`root ${key}`);
  return problems;
}

/** Each schema a provider would receive for these tools. */
function providerSchemas(tools: Tool[], strictToo: boolean): Record<string, unknown>[] {
  const schemas: Record<string, unknown>[] = [
    ...toAnthropicTools(tools).map((t) => t.input_schema),
    ...toOpenAITools(tools, { api: 'chat' }).map((t) => t.function.parameters),
    ...toOpenAITools(tools, { api: 'responses' }).map((t) => t.parameters),
    ...Object.values(toAISDKTools(tools)).map((t) =>
      t.inputSchema['~standard'].jsonSchema.input({ target: 'draft-07' }),
    ),
  ];
  if (strictToo) {
    schemas.push(
      ...toOpenAITools(tools, { api: 'chat', strict: true }).map((t) => t.function.parameters),
      ...toOpenAITools(tools, { api: 'responses', strict: true }).map((t) => t.parameters),
      ...Object.values(toAISDKTools(tools, { strict: true })).map((t) =>
        t.inputSchema['~standard'].jsonSchema.input({ target: 'draft-07' }),
      ),
    );
  }
  return schemas;
}

function toolWith(name: string, inputSchema: z.ZodObject): Tool {
  return defineTool({
    name,
    description: 'test',
    permission: 'read',
    inputSchema,
    outputSchema: z.object({}),
    execute: async () => ({}),
  });
}

function definitionError(run: () => unknown): SandkitError {
  try {
    run();
  } catch (error) {
    if (SandkitError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a SandkitError');
}

const Range = z.object({ start: z.number().int(), end: z.number().int() });

describe('toToolJsonSchema', () => {
  describe('when a sub-schema is reused', () => {
    it('C03: inlines it and leaves no $ref, $defs, definitions or $schema in any provider format', () => {
      const tool = toolWith('read_args', z.object({ path: z.string(), keep: Range, drop: Range.optional() }));
      expect(tool.jsonSchema).toEqual({
        type: 'object',
        properties: {
          path: { type: 'string' },
          keep: {
            type: 'object',
            properties: { start: { type: 'integer' }, end: { type: 'integer' } },
            required: ['start', 'end'],
          },
          drop: {
            type: 'object',
            properties: { start: { type: 'integer' }, end: { type: 'integer' } },
            required: ['start', 'end'],
          },
        },
        required: ['path', 'keep'],
      });
      for (const schema of providerSchemas([tool], true)) expect(forbiddenKeys(schema)).toEqual([]);
    });

    it('C03: inlines sub-schemas registered with .meta({ id }), which Zod always moves to $defs', () => {
      const Named = z
        .object({ start: z.number() })
        .meta({ id: 'sandkit_test_range', description: 'a range' });
      const tool = toolWith(
        'named',
        z.object({ keep: Named, drop: Named.optional().describe('dropped part') }),
      );
      expect(tool.jsonSchema.properties).toEqual({
        keep: {
          type: 'object',
          properties: { start: { type: 'number' } },
          required: ['start'],
          description: 'a range',
        },
        drop: {
          type: 'object',
          properties: { start: { type: 'number' } },
          required: ['start'],
          description: 'dropped part',
        },
      });
      for (const schema of providerSchemas([tool], true)) expect(forbiddenKeys(schema)).toEqual([]);
    });

    it('C03: drops the ±2^53 bounds .int() adds but keeps real bounds', () => {
      const schema = toToolJsonSchema(
        't',
        z.object({ n: z.number().int().min(1).max(10), m: z.number().int() }),
      );
      expect(schema.properties).toEqual({
        n: { type: 'integer', minimum: 1, maximum: 10 },
        m: { type: 'integer' },
      });
    });
  });

  describe('when the input type is recursive', () => {
    it('C03: rejects the tool when it is defined, not at runtime', () => {
      const Node = z.object({
        name: z.string(),
        get children() {
          return z.array(Node).optional();
        },
      });
      const error = definitionError(() => toolWith('tree', z.object({ root: Node })));
      expect(error.code).toBe('invalid_schema');
      expect(error.message).toMatch(
        /^Tool "tree": its input schema cannot be expressed as self-contained JSON Schema/,
      );
      expect(error.message).toContain('recursive types');
      expect(() => toolWith('tree2', Node)).toThrow(/recursive/);
    });
  });

  describe('when the root is a union', () => {
    it('C04: rejects a discriminated union at the root for every provider, at definition', () => {
      const FileOp = z.discriminatedUnion('op', [
        z.object({ op: z.literal('read'), path: z.string() }),
        z.object({ op: z.literal('write'), path: z.string(), text: z.string() }),
      ]);
      const error = definitionError(() => toolWith('file_op', FileOp as unknown as z.ZodObject));
      expect(error.code).toBe('invalid_schema');
      expect(error.message).toContain('must be a z.object at the root');
      expect(error.message).toContain('move the union into a property or flatten it');
    });

    it('C04: rejects plain unions, intersections and nullable objects at the root', () => {
      const a = z.object({ a: z.string() });
      const b = z.object({ b: z.string() });
      for (const root of [z.union([a, b]), z.intersection(a, b), a.nullable(), a.optional()]) {
        expect(definitionError(() => toolWith('t', root as unknown as z.ZodObject)).code).toBe(
          'invalid_schema',
        );
      }
    });

    it('C04: accepts the union moved into a property, and the root stays a plain object', () => {
      const tool = toolWith(
        'file_op',
        z.object({
          op: z.discriminatedUnion('op', [
            z.object({ op: z.literal('read'), path: z.string() }),
            z.object({ op: z.literal('write'), path: z.string(), text: z.string() }),
          ]),
        }),
      );
      for (const schema of providerSchemas([tool], true)) expect(rootProblems(schema)).toEqual([]);
    });

    it('C04: gives an object with no fields properties {} and required []', () => {
      const tool = toolWith('noop', z.object({}));
      expect(tool.jsonSchema).toEqual({ type: 'object', properties: {}, required: [] });
    });
  });
});

/** Random Zod leaf and object schemas: what tool authors write, reused instances included. */
const leaf = fc.constantFrom<() => z.ZodType>(
  () => z.string().describe('a string'),
  () => z.number().int().min(0),
  () => z.number(),
  () => z.boolean().default(false),
  () => z.enum(['a', 'b']),
  () => z.literal('x'),
  () => z.string().nullable(),
  () => z.array(z.string()).max(5),
  () => z.union([z.string(), z.number()]),
);

const objectSchema: fc.Arbitrary<z.ZodObject> = fc.letrec<{ obj: z.ZodObject; field: z.ZodType }>((tie) => ({
  field: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf.map((make) => make()),
    fc.tuple(leaf, fc.boolean()).map(([make, optional]) => (optional ? make().optional() : make())),
    tie('obj'),
    tie('obj').map((o) => o.optional()),
    tie('obj').map((o) => z.array(o)),
  ),
  obj: fc
    .dictionary(fc.stringMatching(/^[a-z][a-zA-Z]{0,6}$/), tie('field'), { maxKeys: 4 })
    .chain((shape) => {
      const base = z.object(shape);
      // reuse one instance in two places, as C03's Range is
      return fc.boolean().map((reuse) => (reuse ? z.object({ first: base, second: base.optional() }) : base));
    }),
})).obj;

describe('every tool schema (property)', () => {
  it('C03/C04: is self-contained with a plain object root in every provider format, strict included', () => {
    fc.assert(
      fc.property(objectSchema, (schema) => {
        const tool = toolWith('random_tool', schema);
        for (const sent of providerSchemas([tool], true)) {
          expect(forbiddenKeys(sent)).toEqual([]);
          expect(rootProblems(sent)).toEqual([]);
        }
        for (const sent of toOpenAITools([tool], { api: 'responses', strict: true })) {
          expect(strictViolations(sent.parameters)).toEqual([]);
        }
      }),
      { numRuns: 100 },
    );
  });
});
