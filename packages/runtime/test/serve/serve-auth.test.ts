import { fileURLToPath } from 'node:url';
import { SandboxError } from '@sandkit/core';
import { createHttpSandboxAdapter } from '@sandkit/sandbox-adapters/http';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken, type RunningServe, startServeProcess } from './serve-test-helpers.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

let serve: RunningServe;
beforeAll(async () => {
  serve = await startServeProcess();
}, 60_000);
afterAll(async () => {
  await serve?.stop();
});

describe('sandkit serve', () => {
  describe('when a request carries no token or a wrong one', () => {
    it('answers 401 with the protocol error body, and runs nothing', async () => {
      const marker = `/tmp/sandkit-serve-auth-${newToken()}`;
      for (const authorization of [undefined, 'Bearer wrong-token', `Basic ${serve.token}`]) {
        const response = await fetch(`${serve.url}v1/sandboxes`, {
          method: 'POST',
          headers: authorization === undefined ? {} : { authorization },
        });
        expect([400, 401]).toContain(response.status);
        const body = (await response.json()) as { error: { code: string; message: string } };
        expect(body.error.code).toBe('unauthorized');
        expect(body.error.message).toMatch(/token|Bearer/);
      }
      const exec = await fetch(`${serve.url}v1/sandboxes/any/exec`, {
        method: 'POST',
        headers: { authorization: 'Bearer wrong-token', 'content-type': 'application/json' },
        body: JSON.stringify({ command: `touch ${marker}`, execId: 'x1' }),
      });
      expect(exec.status).toBe(401);
      await expect(execa('test', ['-e', marker], { reject: false })).resolves.toMatchObject({ exitCode: 1 });
    });

    it('makes the adapter throw sandbox_start_failed that names the refused token', async () => {
      const adapter = createHttpSandboxAdapter({ baseURL: serve.url, auth: { token: 'wrong-token' } });
      const error = await adapter.create().catch((caught: unknown) => caught);
      expect(SandboxError.isInstance(error)).toBe(true);
      expect((error as SandboxError).code).toBe('sandbox_start_failed');
      expect((error as SandboxError).message).toMatch(/refused the bearer token/);
    });
  });

  describe('when asked for health or version', () => {
    it('answers health without a token and version with one', async () => {
      await expect((await fetch(`${serve.url}health`)).json()).resolves.toEqual({ status: 'ok' });
      const version = await fetch(`${serve.url}v1/version`, {
        headers: { authorization: `Bearer ${serve.token}` },
      });
      await expect(version.json()).resolves.toMatchObject({ name: 'sandkit-serve', protocol: 1 });
    });
  });

  describe('when started without a token', () => {
    it('exits 1 saying how to give one or disable auth', async () => {
      const run = await execa(
        process.execPath,
        [
          `${repoRoot}node_modules/tsx/dist/cli.mjs`,
          '--conditions=@sandkit/source',
          `${repoRoot}packages/runtime/src/cli/main.ts`,
          'serve',
          '--port',
          '0',
        ],
        { reject: false, env: { SANDKIT_SERVE_TOKEN: '' } },
      );
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toMatch(
        /a bearer token is required: pass --token-file FILE or set SANDKIT_SERVE_TOKEN/,
      );
      expect(run.stderr).toMatch(/--no-auth/);
    });
  });
});
