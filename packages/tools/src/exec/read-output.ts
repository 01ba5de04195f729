/**
 * read_output: new output of a background command started by exec, by byte offset, and whether it
 * still runs (its exit code once it ended). One exec: the status is taken BEFORE the log is read,
 * so a result with `running: false` holds every byte the command wrote. `nextByteOffset` counts
 * exactly the bytes returned, and a page never ends inside a UTF-8 character (the cut-off bytes
 * come with the next call).
 * @module
 */
import { defineTool, formatCommand, type SandboxClient, type Tool, utf8Boundary } from '@sandkit/core';
import { z } from 'zod';
import type { CodingToolOptions } from '../workspace/coding-tool-options.js';
import { livenessFunctions, locateBackground, unknownProcess } from './background-process.js';
import { backendContexts, type ExecBackendOptions, normalizeExecBackends } from './exec-backends.js';
import { visibleControlBytes } from './visible-control-bytes.js';

const description = `Read the output of a background command started with exec (background: true).
- Pass the processId from exec. byteOffset (default 0) is where to start in its output; pass back nextByteOffset to get only what is new.
- Returns at most about maxOutputBytes per call; when more is available, hasMore is true: call again with nextByteOffset.
- running tells whether the command still runs; once it ended, exitCode is its exit status (null when it was killed by a signal).
- The whole output is also in outputFile, readable with read_file. Control bytes (NUL, ESC, …) are shown as \\xNN, output full of them is described (see notice); outputFile keeps them raw.`;

const inputSchema = z.object({
  processId: z.string().min(1).describe('The processId returned by exec with background: true.'),
  byteOffset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Byte offset in the output to read from (default 0).'),
});

const outputSchema = z.object({
  processId: z.string(),
  output: z.string(),
  byteOffset: z.number().int().nonnegative(),
  nextByteOffset: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  hasMore: z.boolean(),
  running: z.boolean(),
  exitCode: z.number().int().nullable(),
  outputFile: z.string(),
  notice: z.string().optional(),
});

/**
 * Creates the `read_output` tool (permission `exec`). Give it the same `backends` as the exec tool.
 * @throws SandkitError `invalid_option` for bad options.
 */
export function createReadOutputTool(
  client: SandboxClient,
  options: CodingToolOptions & ExecBackendOptions = {},
): Tool {
  const backends = normalizeExecBackends(client, options);
  const contexts = backendContexts(backends, options);
  return defineTool({
    name: 'read_output',
    description,
    permission: 'exec',
    inputSchema,
    outputSchema,
    async execute(input, { signal }) {
      const { context, files, prelude } = await locateBackground(backends, contexts, input.processId);
      const offset = input.byteOffset ?? 0;
      const limit = Math.max(512, context.maxOutputBytes - 1024);
      const script = [
        ...prelude,
        livenessFunctions,
        `x=${formatCommand([files.exit])}`,
        'if [ -f "$x" ]; then st="done $(cat "$x")"; elif leader_alive; then st=running; elif [ -f "$x" ]; then st="done $(cat "$x")"; else st="done -"; fi',
        `size=$(($(wc -c < ${formatCommand([files.log])})))`,
        'printf "%s %s\\n" "$st" "$size"',
        `[ "$size" -gt ${offset} ] && tail -c +${offset + 1} ${formatCommand([files.log])} | head -c ${limit}`,
        'exit 0',
      ].join('\n');
      const chunks: Uint8Array[] = [];
      await context.client.exec(script, {
        maxOutputBytes: 1024,
        onStdout: (chunk) => chunks.push(chunk),
        ...(signal ? { signal } : {}),
      });
      const bytes = Buffer.concat(chunks);
      const newline = bytes.indexOf(10);
      const header = /^(running|done (-|\d+)) (\d+)$/.exec(
        bytes.subarray(0, Math.max(newline, 0)).toString('utf8'),
      );
      if (newline < 0 || !header) throw unknownProcess(input.processId);
      const running = header[1] === 'running';
      const exitCode = header[2] === undefined || header[2] === '-' ? null : Number(header[2]);
      const totalBytes = Number(header[3]);
      const page = bytes.subarray(newline + 1);
      let kept = utf8Boundary(page, page.length);
      // An incomplete sequence at the very end of a finished output will never complete: return it.
      if (!running && offset + page.length >= totalBytes) kept = page.length;
      const next = offset + kept;
      const visible = visibleControlBytes(
        new TextDecoder().decode(page.subarray(0, kept)),
        'output',
        files.relativeLog,
      );
      return {
        processId: input.processId,
        output: visible.text,
        ...(visible.note ? { notice: visible.note } : {}),
        byteOffset: offset,
        nextByteOffset: next,
        totalBytes,
        hasMore: next < totalBytes,
        running,
        exitCode,
        outputFile: files.relativeLog,
      };
    },
  });
}
