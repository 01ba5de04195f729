import { SandkitError, toAnthropicTools, toOpenAITools } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codingToolNames, createCodingTools, createLocalDirectoryPublisher } from '../src/index.js';
import type { SandboxHandle } from '@sandkit/core';

const forbidden = ['$ref', '$defs', 'definitions', '$schema'];

function forbiddenKeysIn(node: unknown, path = '#'): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => forbiddenKeysIn(item, `${path}/${i}`));
  if (typeof node !== 'object' || node === null) return [];
  return Object.entries(node).flatMap(([key, value]) => [
    ...(forbidden.includes(key) ? [`${path}/${key}`] : []),
    ...forbiddenKeysIn(value, `${path}/${key}`),
  ]);
}

describe('createCodingTools', () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await createLocalSandboxAdapter().create();
  });
  afterAll(async () => {
    await sandbox.destroy();
  });

  const publisher = createLocalDirectoryPublisher({ directory: '/tmp/sandkit-never-written' });

  it('returns every tool, in codingToolNames order, when a publisher is given', () => {
    const tools = createCodingTools(sandbox.client, { root: sandbox.workdir, publisher });
    expect(tools.map((t) => t.name)).toEqual([...codingToolNames]);
  });

  it('has no publish tool without a publisher, even when include names it', () => {
    const tools = createCodingTools(sandbox.client, { root: sandbox.workdir });
    expect(tools.map((t) => t.name)).toEqual(codingToolNames.filter((name) => name !== 'publish'));
    expect(createCodingTools(sandbox.client, { include: ['publish'] })).toEqual([]);
  });

  it('has no publish tool with readonly: true, even with a publisher', () => {
    const tools = createCodingTools(sandbox.client, { root: sandbox.workdir, readonly: true, publisher });
    expect(tools.map((t) => t.name)).not.toContain('publish');
  });

  it('returns only the read-only tools when readonly is set', () => {
    const tools = createCodingTools(sandbox.client, { root: sandbox.workdir, readonly: true });
    expect(tools.map((t) => t.name)).toEqual([
      'read_file',
      'list_files',
      'find_files',
      'search_files',
      'git_diff',
    ]);
    expect(tools.every((t) => t.permission === 'read')).toBe(true);
  });

  it('keeps only the included tools and prefixes their names', async () => {
    const tools = createCodingTools(sandbox.client, {
      root: sandbox.workdir,
      include: ['read_file', 'exec'],
      prefix: 'box_',
    });
    expect(tools.map((t) => t.name)).toEqual(['box_read_file', 'box_exec']);
    await sandbox.client.writeFile('hello.txt', 'hi\n');
    const output = await tools[0]!.call({ path: 'hello.txt' });
    expect(JSON.stringify(output)).toContain('hi');
  });

  it('throws SandkitError invalid_option for an unknown included name', () => {
    const error = (() => {
      try {
        createCodingTools(sandbox.client, { include: ['read_file', 'rm_rf' as 'exec'] });
      } catch (caught) {
        return caught;
      }
    })();
    expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
    expect((error as Error).message).toMatch(/rm_rf.*known tools: read_file/);
  });

  describe('when the tools are exported to providers', () => {
    it('C03: every input schema is self-contained (no $ref, $defs, definitions or $schema)', () => {
      for (const tool of createCodingTools(sandbox.client, { root: sandbox.workdir })) {
        expect(forbiddenKeysIn(tool.jsonSchema), tool.name).toEqual([]);
        for (const api of ['chat', 'responses'] as const) {
          for (const strict of [false, true]) {
            const [formatted] = toOpenAITools([tool], { api, strict });
            expect(forbiddenKeysIn(formatted), `${tool.name} ${api} strict=${strict}`).toEqual([]);
          }
        }
      }
    });

    it('C04: every input schema is a plain object at the root, with no root combinator', () => {
      for (const definition of toAnthropicTools(
        createCodingTools(sandbox.client, { root: sandbox.workdir }),
      )) {
        const schema = definition.input_schema as Record<string, unknown>;
        expect(schema.type, definition.name).toBe('object');
        expect(schema.properties, definition.name).toBeTypeOf('object');
        for (const key of ['oneOf', 'anyOf', 'allOf', 'not'])
          expect(schema, definition.name).not.toHaveProperty(key);
      }
    });

    it('C05: every tool survives the strict-mode rewrite with all keys required', () => {
      for (const tool of createCodingTools(sandbox.client, { root: sandbox.workdir })) {
        const [formatted] = toOpenAITools([tool], { api: 'responses', strict: true });
        const parameters = (formatted as { parameters: { properties: object; required: string[] } })
          .parameters;
        expect(parameters.required.sort(), tool.name).toEqual(Object.keys(parameters.properties).sort());
      }
    });
  });
});
