/**
 * The publish tool through the CLI: `sandkit mcp --publish-s3 bucket/prefix` (official MCP client;
 * the real AWS SDK against the S3 stand-in, configured only by the SDK's environment variables) and
 * `sandkit call publish` with `--publish-dir` and `--publish-config`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3StandIn, startS3StandIn } from '../../../tools/test/publish/s3-stand-in.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const slow = { timeout: 240_000 };
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let s3: S3StandIn;
let root: string;
const bytes = randomBytes(200_000);
beforeAll(async () => {
  s3 = await startS3StandIn('cli-bucket');
  root = await mkdtemp(join(tmpdir(), 'sandkit-publish-cli-'));
  await writeFile(join(root, 'chart data.bin'), bytes);
});
afterAll(async () => {
  await s3?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

/** The SDK's own environment for the stand-in: no sandkit option names the endpoint. */
const awsEnv = () => ({
  AWS_ENDPOINT_URL_S3: s3.endpoint,
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey,
});
const sourceEnv = { NODE_OPTIONS: '--conditions=@sandkit/source --import tsx' };

async function mcpTools(extra: string[]) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [main, 'mcp', '--sandbox', 'local', '--root', root, ...extra],
    env: { ...env, ...awsEnv(), ...sourceEnv },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'sandkit-test', version: '1.0.0' });
  await client.connect(transport, slow);
  return client;
}

const call = (args: string[]) =>
  execa(process.execPath, [main, 'call', ...args, '--root', root], {
    env: { ...awsEnv(), ...sourceEnv },
    reject: false,
  });

// each test starts the CLI through tsx once or twice, which takes long on a loaded machine
describe('sandkit mcp --publish-s3', { timeout: 240_000 }, () => {
  it('lists publish and publishes a file whose link plain fetch downloads', async () => {
    const client = await mcpTools(['--publish-s3', 'cli-bucket/runs/42']);
    try {
      const { tools } = await client.listTools(undefined, slow);
      expect(tools.map((tool) => tool.name)).toContain('publish');
      const result = await client.callTool(
        { name: 'publish', arguments: { path: 'chart data.bin' } },
        undefined,
        slow,
      );
      expect(result.isError).toBeFalsy();
      const output = result.structuredContent as { url: string; sha256: string; bytes: number };
      expect(output).toMatchObject({ sha256: sha256(bytes), bytes: bytes.length });
      expect(decodeURIComponent(new URL(output.url).pathname)).toMatch(
        /^\/cli-bucket\/runs\/42\/[0-9a-f-]{36}\/chart data\.bin$/,
      );
      const response = await fetch(output.url);
      expect(sha256(Buffer.from(await response.arrayBuffer()))).toBe(sha256(bytes));
    } finally {
      await client.close();
    }
  });

  it('has no publish tool without a publish flag, nor with --readonly', async () => {
    for (const extra of [[], ['--readonly', '--publish-s3', 'cli-bucket']]) {
      const client = await mcpTools(extra);
      try {
        const { tools } = await client.listTools(undefined, slow);
        expect(tools.map((tool) => tool.name)).not.toContain('publish');
        expect(tools.length).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
    }
  });
});

describe('sandkit call publish', { timeout: 240_000 }, () => {
  it('copies into --publish-dir and prints the file:// link', async () => {
    const out = await mkdtemp(join(tmpdir(), 'sandkit-published-'));
    try {
      const result = await call([
        'publish',
        JSON.stringify({ path: 'chart data.bin' }),
        '--publish-dir',
        out,
      ]);
      expect(result.exitCode).toBe(0);
      const { isError, output } = JSON.parse(result.stdout) as { isError: boolean; output: { url: string } };
      expect(isError).toBe(false);
      expect(sha256(await readFile(fileURLToPath(output.url)))).toBe(sha256(bytes));
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('reads the S3 store and the bounds from --publish-config', async () => {
    const config = join(root, '..', `publish-${Date.now()}.json`);
    await writeFile(
      config,
      JSON.stringify({
        s3: { bucket: 'cli-bucket', prefix: 'cfg', endpoint: s3.endpoint, forcePathStyle: true },
        maxBytes: 1000,
      }),
    );
    try {
      const tooLarge = await call([
        'publish',
        JSON.stringify({ path: 'chart data.bin' }),
        '--publish-config',
        config,
      ]);
      expect(tooLarge.exitCode).toBe(1);
      expect(tooLarge.stdout).toContain('over the publish limit of 1000 bytes');
      await writeFile(join(root, 'small.txt'), 'small\n');
      const ok = await call(['publish', JSON.stringify({ path: 'small.txt' }), '--publish-config', config]);
      expect(ok.exitCode).toBe(0);
      const { output } = JSON.parse(ok.stdout) as { output: { url: string; contentType: string } };
      expect(output.contentType).toBe('text/plain; charset=utf-8');
      expect(await (await fetch(output.url)).text()).toBe('small\n');
    } finally {
      await rm(config, { force: true });
    }
  });

  it('refuses a bad config with the field that is wrong', async () => {
    const config = join(root, '..', `bad-${Date.now()}.json`);
    await writeFile(config, JSON.stringify({ s3: { bucket: 'b', endpoint: 'not a url' } }));
    try {
      const result = await call(['publish', '{}', '--publish-config', config]);
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toContain('s3.endpoint');
    } finally {
      await rm(config, { force: true });
    }
  });
});
