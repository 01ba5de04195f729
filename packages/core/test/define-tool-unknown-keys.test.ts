import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ToolArgumentError } from '../src/index.js';

describe('defineTool', () => {
  describe('when a call has a key the input schema does not know', () => {
    it('throws ToolArgumentError invalid_arguments naming the key, instead of ignoring it', async () => {
      const tool = defineTool({
        name: 'search',
        description: 'test tool',
        inputSchema: z.object({ pattern: z.string(), context: z.number().int().optional() }),
        outputSchema: z.object({ ok: z.boolean() }),
        permission: 'read',
        execute: async () => ({ ok: true }),
      });
      const error = await tool.call({ pattern: 'x', contextLines: 3 }).catch((e: unknown) => e);
      expect(ToolArgumentError.isInstance(error)).toBe(true);
      expect((error as ToolArgumentError).code).toBe('invalid_arguments');
      expect((error as Error).message).toContain('contextLines');
      await expect(tool.call({ pattern: 'x', context: 3 })).resolves.toEqual({ ok: true });
    });
  });
});
