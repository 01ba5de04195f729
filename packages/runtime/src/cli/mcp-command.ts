import type { SandboxClient } from '@sandkit/core';
import type { Command } from 'commander';
import { defaultCodingTools } from '../agent/default-coding-tools.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { LineStdioServerTransport } from '../mcp/line-stdio-transport.js';
import { openWorkspace } from './open-workspace.js';
import { addPublishFlags, type PublishFlags, publishSetup } from './publish-options.js';
import { type SessionProcesses, trackSessionProcesses } from './session-processes.js';
import { jsonRpcStdout } from './stdout-guard.js';

/** How long calls still running when stdin ends may take before they are aborted (3 s). */
export const stdinEndGraceMs = 3000;
/** How long aborted calls get to send their "aborted" answers before the server exits (3 s). */
const abortAnswerMs = 3000;
/** Exit anyway this long after shutdown began, whatever hangs (20 s). */
const hardExitMs = 20_000;

const signalExitCodes = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 } as const;

/**
 * Registers `sandkit mcp`: the coding tools over MCP stdio.
 *
 * Shutdown (case R13), on stdin's end or SIGTERM / SIGHUP / SIGINT:
 * 1. calls still running are aborted: at once on a signal, after {@link stdinEndGraceMs} when stdin
 *    ended (the MCP spec's stdio shutdown is "close stdin, wait, then SIGTERM"); each gets its
 *    "aborted" tool error as its answer;
 * 2. every process the session started is killed, background commands and what they `setsid` included
 *    (local sandbox: see {@link trackSessionProcesses}; docker: the container is removed);
 * 3. the process exits: 0 after stdin ended, 128 + the signal number after a signal, 1 after an
 *    input or output error (logged to stderr, as every transport error is).
 */
export function registerMcpCommand(program: Command): void {
  const command = program
    .command('mcp')
    .description('Serve the coding tools over MCP (stdio) for Claude Code and other MCP clients')
    .option('--sandbox <kind>', 'local | docker', 'local')
    .option('--root <dir>', 'workspace: a host directory (local) or the path in the container (docker)')
    .option('--image <image>', 'image for --sandbox docker')
    .option('--readonly', 'only the read-only tools', false);
  addPublishFlags(command).action(
    async (options: { sandbox: string; root?: string; image?: string; readonly: boolean } & PublishFlags) => {
      const publish = await publishSetup(options);
      const workspace = await openWorkspace(options);
      const processes = options.sandbox === 'local' ? trackSessionProcesses(workspace.root) : undefined;
      const client = processes ? tagged(workspace.client, processes) : workspace.client;
      const tools = defaultCodingTools(client, workspace.root, { readonly: options.readonly, ...publish });
      const running = new Set<Promise<unknown>>();
      const stopping = new AbortController();
      const server = createMcpServer(tools, {
        name: 'sandkit',
        signal: stopping.signal,
        onCall: (run) => {
          running.add(run);
          void run.finally(() => running.delete(run));
        },
      });
      const transport = new LineStdioServerTransport(process.stdin, jsonRpcStdout);
      let closing = false;
      const shutdown = async (exitCode: number, graceMs: number): Promise<void> => {
        if (closing) return;
        closing = true;
        setTimeout(() => process.exit(exitCode), hardExitMs).unref();
        // Let the SDK start the handlers of the last lines read.
        await new Promise((resolve) => setImmediate(resolve));
        await settled(running, graceMs);
        stopping.abort(new Error('sandkit mcp is shutting down'));
        await settled(running, abortAnswerMs);
        // The SDK sends a result one step after its handler settles.
        await new Promise((resolve) => setImmediate(resolve));
        await server.close().catch(() => {});
        const left = await processes?.killAll();
        if (left) console.error(`sandkit mcp: ${left} process(es) of this session could not be killed`);
        await workspace
          .close()
          .catch((error: unknown) => console.error('sandkit mcp: cleanup failed:', error));
        process.exit(exitCode);
      };
      transport.onerror = (error) => console.error('sandkit mcp: transport error:', error.message);
      transport.onclose = () => {
        if (!closing) {
          console.error('sandkit mcp: the transport closed unexpectedly');
          void shutdown(1, 0);
        }
      };
      // `on`, not `once`: a second signal must not end the process halfway through the shutdown (the
      // docker adapter re-raises a signal once no other listener is left)
      for (const [name, code] of Object.entries(signalExitCodes))
        process.on(name, () => void shutdown(code, 0));
      process.stdin.once('error', () => void shutdown(1, 0));
      jsonRpcStdout.on('error', (error) => {
        console.error('sandkit mcp: cannot write to stdout:', error.message);
        void shutdown(1, 0);
      });
      await server.connect(transport);
      // After connect: the transport's own 'end' handler reads a last unterminated line first.
      process.stdin.once('end', () => void shutdown(0, stdinEndGraceMs));
      console.error(
        `sandkit mcp: serving ${tools.length} tools on stdio, workspace ${workspace.root} (${options.sandbox})${publish.publisher ? `, publishing to ${publish.publisher.name}` : ''}`,
      );
    },
  );
}

/** Resolves when every promise in `running` settled, or after `ms`. */
async function settled(running: Set<Promise<unknown>>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (running.size > 0 && Date.now() < deadline) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(running),
      new Promise((resolve) => {
        timer = setTimeout(resolve, deadline - Date.now());
      }),
    ]);
    clearTimeout(timer);
  }
}

/** `client` with the session's marker in every command's environment. */
function tagged(client: SandboxClient, processes: SessionProcesses): SandboxClient {
  return {
    readFile: (path, readOptions) => client.readFile(path, readOptions),
    writeFile: (path, data, writeOptions) => client.writeFile(path, data, writeOptions),
    exec: (command, execOptions = {}) =>
      client.exec(command, { ...execOptions, env: { ...processes.env, ...execOptions.env } }),
  };
}
