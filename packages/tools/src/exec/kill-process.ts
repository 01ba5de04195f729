/**
 * kill_process: ends a background command's whole process group (the command led its own session,
 * so pgid = pid): SIGTERM, up to 3 s for the group to go, then SIGKILL. Liveness comes from
 * /proc (zombies do not count), so no procps is needed. Ending a command that already ended is
 * not an error.
 * @module
 */
import { defineTool, formatCommand, type SandboxClient, type Tool } from '@sandkit/core';
import { z } from 'zod';
import type { CodingToolOptions } from '../workspace/coding-tool-options.js';
import { livenessFunctions, locateBackground, unknownProcess } from './background-process.js';
import { backendContexts, type ExecBackendOptions, normalizeExecBackends } from './exec-backends.js';

const description = `Stop a background command started with exec (background: true), with every process it started (its whole process group): SIGTERM, then SIGKILL after 3 s.
- Pass the processId from exec. wasRunning tells whether anything was still running; stopping an ended command is fine.
- Its output stays readable with read_output or read_file.`;

const inputSchema = z.object({
  processId: z.string().min(1).describe('The processId returned by exec with background: true.'),
});

const outputSchema = z.object({
  processId: z.string(),
  wasRunning: z.boolean(),
  signal: z.enum(['SIGTERM', 'SIGKILL']).nullable(),
  running: z.boolean(),
  exitCode: z.number().int().nullable(),
});

/**
 * Creates the `kill_process` tool (permission `exec`). Give it the same `backends` as the exec tool.
 * @throws SandkitError `invalid_option` for bad options.
 */
export function createKillProcessTool(
  client: SandboxClient,
  options: CodingToolOptions & ExecBackendOptions = {},
): Tool {
  const backends = normalizeExecBackends(client, options);
  const contexts = backendContexts(backends, options);
  return defineTool({
    name: 'kill_process',
    description,
    permission: 'exec',
    inputSchema,
    outputSchema,
    async execute(input) {
      const { context, files, prelude } = await locateBackground(backends, contexts, input.processId);
      const script = [
        ...prelude,
        livenessFunctions,
        'was=0; sig=-',
        'if alive; then was=1; sig=SIGTERM; kill -s TERM -- "-$pid" 2>/dev/null',
        '  i=0; while alive && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done',
        '  if alive; then sig=SIGKILL; kill -s KILL -- "-$pid" 2>/dev/null; i=0; while alive && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done; fi',
        'fi',
        'still=0; alive && still=1',
        `code=-; [ -f ${formatCommand([files.exit])} ] && code=$(cat ${formatCommand([files.exit])})`,
        'echo "$was $sig $still $code"',
      ].join('\n');
      // No abort signal here: a kill that is itself cut short would leave the group half-stopped.
      const result = await context.client.exec(script, { maxOutputBytes: 4096 });
      const match = /^([01]) (-|SIGTERM|SIGKILL) ([01]) (-|\d+)$/.exec(result.stdout.trim());
      if (!match) throw unknownProcess(input.processId);
      return {
        processId: input.processId,
        wasRunning: match[1] === '1',
        signal: match[2] === '-' ? null : (match[2] as 'SIGTERM' | 'SIGKILL'),
        running: match[3] === '1',
        exitCode: match[4] === '-' ? null : Number(match[4]),
      };
    },
  });
}
