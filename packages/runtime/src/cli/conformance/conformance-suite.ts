/**
 * The sandbox conformance suite for the adapter named by `SANDKIT_CONFORMANCE_SANDBOX`
 * (`local` | `docker` | `e2b` | `http`), run by `sandkit conformance` through vitest.
 * `SANDKIT_CONFORMANCE_IMAGE` is the Docker image or E2B template; `SANDKIT_CONFORMANCE_BASE_URL`
 * the server for `http` (token in `SANDKIT_SERVE_TOKEN`), else a server started here.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { SandboxAdapter } from '@sandkit/core';
import { type ConformanceFaults, describeSandboxConformance } from '@sandkit/sandbox-adapters/conformance';
import { afterAll } from 'vitest';

const kind = process.env.SANDKIT_CONFORMANCE_SANDBOX ?? 'local';
const image = process.env.SANDKIT_CONFORMANCE_IMAGE;
/** The server and token of `http` (set by createAdapter). */
let http: { url: string; token: string; close?: () => Promise<void> } | undefined;

async function createAdapter(): Promise<SandboxAdapter> {
  if (kind === 'local') return (await import('@sandkit/sandbox-adapters/local')).createLocalSandboxAdapter();
  if (kind === 'docker') {
    if (!image) throw new Error('sandkit conformance --sandbox docker needs --image');
    return (await import('@sandkit/sandbox-adapters/docker')).createDockerSandboxAdapter({ image });
  }
  if (kind === 'e2b')
    return (await import('@sandkit/sandbox-adapters/e2b')).createE2BSandboxAdapter({ template: image });
  if (kind === 'http') {
    const baseURL = process.env.SANDKIT_CONFORMANCE_BASE_URL;
    if (baseURL === undefined) {
      const token = randomBytes(24).toString('hex');
      const server = await (await import('@sandkit/sandbox-adapters/serve')).startSandboxServer({
        port: 0,
        token,
      });
      http = { url: server.url, token, close: () => server.close() };
    } else {
      const token = process.env.SANDKIT_SERVE_TOKEN;
      if (!token) throw new Error('sandkit conformance --sandbox http --base-url needs SANDKIT_SERVE_TOKEN');
      http = { url: baseURL.endsWith('/') ? baseURL : `${baseURL}/`, token };
    }
    const { createHttpSandboxAdapter } = await import('@sandkit/sandbox-adapters/http');
    return createHttpSandboxAdapter({ baseURL: http.url, auth: { token: http.token } });
  }
  throw new Error(`unknown sandbox ${kind}; use local, docker, e2b or http`);
}

/** Fault hooks where a real run can inject the fault (the others' cases are reported as skipped). */
const faults: Record<string, ConformanceFaults> = {
  local: {
    disappear: (handle) => rm(handle.workdir, { recursive: true, force: true }),
    endTransport: async () => undefined,
  },
  http: {
    // Deleted on the server behind the adapter's back.
    disappear: async (handle) => {
      if (http === undefined) return;
      await fetch(`${http.url}v1/sandboxes/${encodeURIComponent(handle.id)}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${http.token}` },
      });
    },
  },
  e2b: {
    // Killed through E2B's API behind the adapter's back.
    disappear: async (handle) => {
      await (handle as unknown as { sandbox: { kill(): Promise<boolean> } }).sandbox.kill();
    },
  },
};

afterAll(async () => {
  await http?.close?.();
});

describeSandboxConformance(kind, createAdapter, {
  timeoutScale: kind === 'local' ? 1 : 3,
  faults: faults[kind] ?? {},
});
