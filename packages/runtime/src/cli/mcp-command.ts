import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Command } from 'commander';
import { defaultCodingTools } from '../agent/default-coding-tools.js';
import { createMcpServer } from '../mcp/create-mcp-server.js';
import { openWorkspace } from './open-workspace.js';
import { jsonRpcStdout } from './stdout-guard.js';

/** Registers `sandkit mcp`: the coding tools over MCP stdio. */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve the coding tools over MCP (stdio) for Claude Code and other MCP clients')
    .option('--sandbox <kind>', 'local | docker', 'local')
    .option('--root <dir>', 'workspace: a host directory (local) or the path in the container (docker)')
    .option('--image <image>', 'image for --sandbox docker')
    .option('--readonly', 'only the read-only tools', false)
    .action(async (options: { sandbox: string; root?: string; image?: string; readonly: boolean }) => {
      const workspace = await openWorkspace(options);
      const tools = defaultCodingTools(workspace.client, workspace.root, { readonly: options.readonly });
      // Calls read before stdin ended are answered before the server closes.
      const running = new Set<Promise<unknown>>();
      const server = createMcpServer(tools, {
        name: 'sandkit',
        onCall: (run) => {
          running.add(run);
          void run.finally(() => running.delete(run));
        },
      });
      const transport = new StdioServerTransport(process.stdin, jsonRpcStdout);
      let closing = false;
      const shutdown = async (): Promise<void> => {
        if (closing) return;
        closing = true;
        await server.close().catch(() => {});
        await workspace
          .close()
          .catch((error: unknown) => console.error('sandkit mcp: cleanup failed:', error));
        process.exit(0);
      };
      transport.onclose = () => void shutdown();
      process.stdin.once('end', () => {
        void (async () => {
          // Let the SDK start the handlers of the last lines read.
          await new Promise((resolve) => setImmediate(resolve));
          while (running.size > 0) await Promise.all(running);
          // The SDK sends a result one step after its handler settles.
          await new Promise((resolve) => setImmediate(resolve));
          await shutdown();
        })();
      });
      process.once('SIGTERM', () => void shutdown());
      process.once('SIGINT', () => void shutdown());
      await server.connect(transport);
      console.error(
        `sandkit mcp: serving ${tools.length} tools on stdio, workspace ${workspace.root} (${options.sandbox})`,
      );
    });
}
