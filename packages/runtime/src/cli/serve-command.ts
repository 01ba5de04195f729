/**
 * `sandkit serve`: runs sandboxes on this machine (or in this container) for the HTTP adapter,
 * over the protocol of `docs/http-protocol.md`. A bearer token is required unless `--no-auth` is
 * given: from `--token-file` (first line), else `SANDKIT_SERVE_TOKEN` (never an argument, which
 * `ps` would show). Prints `sandkit serve: listening on <url>` to stdout once it listens; SIGINT or
 * SIGTERM destroys every sandbox (their processes and directories) and exits 0.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { startSandboxServer } from '@sandkit/sandbox-adapters/serve';
import { type Command, InvalidArgumentError } from 'commander';

interface ServeOptions {
  host: string;
  port: number;
  tokenFile?: string;
  auth: boolean;
  root?: string;
}

/** Adds the `serve` command to `program` (commander 14). */
export function registerServeCommand(program: Command): Command {
  return program
    .command('serve')
    .description('Serve sandboxes on this machine over HTTP for createHttpSandboxAdapter (bearer-token auth)')
    .option('--host <address>', 'address to listen on (0.0.0.0 inside a container)', '127.0.0.1')
    .option('--port <port>', 'port to listen on; 0 picks a free one', port, 8080)
    .option('--token-file <file>', 'file whose first line is the bearer token (else SANDKIT_SERVE_TOKEN)')
    .option('--no-auth', 'serve without a token: anyone who reaches the port runs commands')
    .option('--root <dir>', 'directory under which each sandbox directory is made (default: the temp dir)')
    .addHelpText(
      'after',
      `
Examples:
  SANDKIT_SERVE_TOKEN=$(openssl rand -hex 32) sandkit serve --host 0.0.0.0 --port 8080
  sandkit serve --token-file /run/secrets/sandkit-token --root /workspace
The protocol (routes, NDJSON exec stream, errors) is in docs/http-protocol.md.
`,
    )
    .action(async (options: ServeOptions) => {
      const token = options.auth ? await readToken(options.tokenFile) : undefined;
      const server = await startSandboxServer({
        host: options.host,
        port: options.port,
        ...(token === undefined ? {} : { token }),
        ...(options.auth ? {} : { noAuth: true }),
        ...(options.root === undefined ? {} : { root: options.root }),
      });
      process.stdout.write(`sandkit serve: listening on ${server.url}\n`);
      const stop = (): void => {
        void server.close().finally(() => process.exit(0));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}

async function readToken(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return process.env.SANDKIT_SERVE_TOKEN;
  const text = await readFile(file, 'utf8');
  return text.split('\n')[0]?.trim();
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535)
    throw new InvalidArgumentError('must be an integer in 0..65535');
  return n;
}
