import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const example = fileURLToPath(new URL('../anthropic-loop.ts', import.meta.url));

/**
 * A stand-in for the Messages API (the real one needs a key and the network): records each request
 * body and answers with one text block and no tool use, which ends the example's loop.
 */
let server: Server;
let baseUrl: string;
const bodies: Array<{ model?: string }> = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      bodies.push(JSON.parse(body) as { model?: string });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'stand-in',
          content: [{ type: 'text', text: 'done' }],
          stop_reason: 'end_turn',
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function runExample(
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { ANTHROPIC_MODEL: _unset, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=@sandkit/source', '--import', 'tsx', example, 'say done'],
      {
        cwd: repoRoot,
        env: { ...inherited, ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: baseUrl, ...env },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
          stdout,
          stderr,
        }),
    );
  });
}

describe('examples/anthropic-loop.ts', () => {
  describe('when ANTHROPIC_MODEL is not set', () => {
    it('calls a current model the SDK in the lockfile does not warn about', async () => {
      bodies.length = 0;
      const run = await runExample({});
      expect(run.stderr).not.toMatch(/deprecated/i);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('done');
      expect(bodies.map((body) => body.model)).toEqual(['claude-sonnet-5-5']);
    }, 120_000);
  });

  describe('when ANTHROPIC_MODEL names a model the SDK deprecates', () => {
    it('calls that model, and the SDK prints the warning the default avoids', async () => {
      bodies.length = 0;
      const run = await runExample({ ANTHROPIC_MODEL: 'claude-sonnet-4-5' });
      expect(run.code).toBe(0);
      expect(bodies.map((body) => body.model)).toEqual(['claude-sonnet-4-5']);
      expect(run.stderr).toMatch(/The model 'claude-sonnet-4-5' is deprecated/);
    }, 120_000);
  });
});
