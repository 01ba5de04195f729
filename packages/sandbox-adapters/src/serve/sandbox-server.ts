/**
 * `startSandboxServer`: the server behind `sandkit serve`, listening with `@hono/node-server`.
 * @module
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { createServeApp } from './serve-app.js';
import { ServeSandboxes } from './serve-sandboxes.js';

/** Options of {@link startSandboxServer}. */
export interface SandboxServerOptions {
  /**
   * Bearer token every `/v1/` request must carry (`Authorization: Bearer <token>`): 1 or more of
   * `A-Z a-z 0-9 . _ ~ + / -`, optionally ending in `=`s (RFC 6750's b64token). Required unless
   * `noAuth` is `true`.
   */
  token?: string;
  /** Serve without auth: anyone who reaches the port runs commands. @default false */
  noAuth?: boolean;
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
  /** Port; 0 picks a free one (see {@link SandboxServer.url}). @default 8080 */
  port?: number;
  /** Directory under which each sandbox's directory is made. @default os.tmpdir() */
  root?: string;
}

/** A listening server. */
export interface SandboxServer {
  /** Base URL clients use, for example `http://127.0.0.1:8080/`. */
  readonly url: string;
  readonly port: number;
  /** Stops listening and destroys every sandbox (their processes and directories). */
  close(): Promise<void>;
}

/**
 * Starts `sandkit serve`'s HTTP server: the sandbox protocol of `docs/http-protocol.md`, each
 * sandbox a local-adapter sandbox on this machine (run it inside the container or VM that is to be
 * the sandbox).
 * @throws SandkitError `invalid_option` for no token without `noAuth`, a malformed token, or a bad
 *   port; the listen error (`EADDRINUSE`...) as node:net throws it.
 */
export async function startSandboxServer(options: SandboxServerOptions): Promise<SandboxServer> {
  const token = checkedToken(options);
  const port = options.port ?? 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw invalid(`port must be an integer in 0..65535, got ${port}`);
  const host = options.host ?? '127.0.0.1';
  const sandboxes = new ServeSandboxes(options.root);
  const app = createServeApp(sandboxes, token);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const listening = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(listening));
    listening.once('error', reject);
  });
  const bound = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  return {
    url: `http://${shown}:${bound}/`,
    port: bound,
    async close() {
      await sandboxes.destroyAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}

function checkedToken(options: SandboxServerOptions): string | undefined {
  if (options.noAuth === true) {
    if (options.token !== undefined) throw invalid('give either a token or noAuth, not both');
    return undefined;
  }
  if (options.token === undefined || options.token === '')
    throw invalid(
      'a bearer token is required: pass --token-file FILE or set SANDKIT_SERVE_TOKEN (or disable auth explicitly with --no-auth)',
    );
  if (!/^[A-Za-z0-9._~+/-]+=*$/.test(options.token))
    throw invalid('the token may hold only A-Z a-z 0-9 . _ ~ + / - (and trailing =), as a bearer token must');
  return options.token;
}

function invalid(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message: `sandkit serve: ${message}` });
}
