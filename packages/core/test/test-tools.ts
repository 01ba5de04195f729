/**
 * Small tools for the core tests, defined with `defineTool` like the real coding tools: they read real
 * files and run real processes, so aborts and errors are the real ones.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool, type Tool } from '../src/define-tool.js';
import { SandboxError } from '../src/errors/sandbox-error.js';
import { SandkitErrorCode } from '../src/errors/sandkit-error.js';
import { ToolError } from '../src/errors/tool-error.js';

/** Records the input each call got, so tests can check what reached `execute`. */
export const seenInputs: unknown[] = [];

/** read_file: text files as text, `.png` as an image part, `.pdf` as a document part. */
export function createReadFileTool(root: string): Tool {
  return defineTool({
    name: 'read_file',
    description: 'Read a file.',
    permission: 'read',
    inputSchema: z.object({
      path: z.string().describe('Path relative to the root.'),
      offset: z.number().int().min(1).optional().describe('First line, 1-based.'),
      limit: z.number().int().min(1).optional().describe('Number of lines.'),
    }),
    outputSchema: z.object({ kind: z.enum(['text', 'image', 'pdf']), text: z.string(), base64: z.string() }),
    async execute(input): Promise<{ kind: 'text' | 'image' | 'pdf'; text: string; base64: string }> {
      seenInputs.push(input);
      let bytes: Buffer;
      try {
        bytes = await readFile(`${root}/${input.path}`);
      } catch {
        throw new ToolError({
          code: SandkitErrorCode.notFound,
          message: `File ${input.path} does not exist; list the directory to find the right name.`,
        });
      }
      if (input.path.endsWith('.png'))
        return { kind: 'image', text: `PNG, ${bytes.length} bytes`, base64: bytes.toString('base64') };
      if (input.path.endsWith('.pdf'))
        return { kind: 'pdf', text: `PDF, ${bytes.length} bytes`, base64: bytes.toString('base64') };
      const lines = bytes.toString('utf8').split('\n');
      const start = (input.offset ?? 1) - 1;
      return {
        kind: 'text',
        text: lines.slice(start, input.limit === undefined ? undefined : start + input.limit).join('\n'),
        base64: '',
      };
    },
    toContent(output) {
      if (output.kind === 'image') {
        return [
          { type: 'text', text: output.text },
          { type: 'image', mediaType: 'image/png', data: output.base64 },
        ];
      }
      if (output.kind === 'pdf') {
        return [
          { type: 'text', text: output.text },
          { type: 'document', mediaType: 'application/pdf', data: output.base64, title: 'doc.pdf' },
        ];
      }
      return [{ type: 'text', text: output.text }];
    },
  });
}

/** exec: runs `sh -c` for real; the call's signal kills the process. */
export function createExecTool(): Tool {
  return defineTool({
    name: 'exec',
    description: 'Run a shell command.',
    permission: 'exec',
    inputSchema: z.object({ command: z.string().min(1), timeoutMs: z.number().int().positive().optional() }),
    outputSchema: z.object({ exitCode: z.number().int().nullable(), stdout: z.string() }),
    execute(input, { signal }) {
      return new Promise((resolve, reject) => {
        const child = spawn('/bin/sh', ['-c', input.command], { signal, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
        });
        child.on('error', (error) =>
          reject(
            error.name === 'AbortError'
              ? new ToolError({ code: SandkitErrorCode.aborted, message: 'aborted', cause: error })
              : error,
          ),
        );
        child.on('close', (exitCode) => resolve({ exitCode, stdout }));
      });
    },
  });
}

/** A tool whose handler fails in the way `mode` says. */
export function createFailingTool(): Tool {
  return defineTool({
    name: 'fail',
    description: 'Fails on purpose.',
    permission: 'read',
    inputSchema: z.object({ mode: z.enum(['tool', 'sandbox', 'bug', 'output']) }),
    outputSchema: z.object({ ok: z.boolean() }),
    async execute(input) {
      if (input.mode === 'tool') {
        throw new ToolError({
          code: SandkitErrorCode.notUnique,
          message: 'old text occurs 2 times; add context',
        });
      }
      if (input.mode === 'sandbox') {
        throw new SandboxError({ code: SandkitErrorCode.sandboxGone, message: 'the sandbox is gone' });
      }
      if (input.mode === 'bug') throw new TypeError('cannot read properties of undefined');
      return { ok: 'yes' } as unknown as { ok: boolean };
    },
  });
}
