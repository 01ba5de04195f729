import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../src/define-tool.js';
import { SandkitError } from '../src/errors/sandkit-error.js';
import { ToolArgumentError } from '../src/errors/tool-argument-error.js';
import { ToolOutputError } from '../src/errors/tool-output-error.js';

function lineTool(result: unknown = { lines: 2 }) {
  return defineTool({
    name: 'count_lines',
    description: 'Count lines.',
    permission: 'read',
    inputSchema: z.object({ path: z.string().min(1), max: z.number().int().positive().optional() }),
    outputSchema: z.object({ lines: z.number().int() }),
    execute: async () => result as { lines: number },
  });
}

describe('defineTool', () => {
  describe('when called with arguments that do not match', () => {
    it('throws ToolArgumentError with the Zod issues and a message listing each path', async () => {
      const error = await lineTool()
        .call({ path: '', max: -1, extra: true })
        .catch((e: unknown) => e);
      expect(ToolArgumentError.isInstance(error)).toBe(true);
      const argumentError = error as ToolArgumentError;
      expect(argumentError.code).toBe('invalid_arguments');
      expect(argumentError.toolName).toBe('count_lines');
      expect(argumentError.issues.map((issue) => issue.path.join('.'))).toEqual(['path', 'max', '']);
      expect(argumentError.message).toMatch(
        /^Invalid arguments for tool "count_lines":\n- path: .+\n- max: .+\n- \(arguments\): .*"extra".*\nFix these fields and call the tool again\.$/,
      );
    });

    it('throws ToolArgumentError at "(arguments)" when the arguments are not an object', async () => {
      const error = (await lineTool()
        .call('path=a')
        .catch((e: unknown) => e)) as ToolArgumentError;
      expect(error.message).toContain('- (arguments): ');
    });
  });

  describe('when the tool returns a result that does not match its output schema', () => {
    it('throws ToolOutputError with the issues', async () => {
      const error = await lineTool({ lines: 'two' })
        .call({ path: 'a' })
        .catch((e: unknown) => e);
      expect(ToolOutputError.isInstance(error)).toBe(true);
      expect((error as ToolOutputError).code).toBe('invalid_output');
      expect((error as ToolOutputError).message).toContain('lines:');
    });
  });

  it('returns the validated output and a JSON text part by default', async () => {
    const tool = lineTool();
    const output = await tool.call({ path: 'a' });
    expect(output).toEqual({ lines: 2 });
    expect(tool.toContent(output)).toEqual([{ type: 'text', text: '{"lines":2}' }]);
  });

  it.each(['', 'has space', 'a'.repeat(65), 'dot.name'])(
    'rejects the name %j with invalid_schema',
    (name) => {
      let error: unknown;
      try {
        defineTool({
          name,
          description: 'x',
          permission: 'read',
          inputSchema: z.object({}),
          outputSchema: z.object({}),
          execute: async () => ({}),
        });
      } catch (caught) {
        error = caught;
      }
      expect(SandkitError.isInstance(error) && error.code).toBe('invalid_schema');
    },
  );
});
