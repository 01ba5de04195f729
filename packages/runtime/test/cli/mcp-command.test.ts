import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';

/** The CLI's source entry, run as `pnpm sandkit` runs it (tsx, the `@sandkit/source` condition). */
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const noisy = pathToFileURL(fileURLToPath(new URL('./fixtures/noisy-dependency.mjs', import.meta.url))).href;
// 1×1 transparent PNG
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Generous request timeouts: the server starts through tsx, which takes long on a loaded machine. */
const slow = { timeout: 240_000 };

type TextItem = { type: string; text?: string; data?: string; mimeType?: string };

/** Starts the real `sandkit mcp` behind `tee`, so every byte it writes to stdout is kept in `stdoutFile`. */
async function startServer(root: string, extra: string[] = []) {
  const stdoutFile = join(await mkdtemp(join(tmpdir(), 'sandkit-mcp-out-')), 'stdout.log');
  const env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const transport = new StdioClientTransport({
    command: '/bin/sh',
    args: [
      '-c',
      `"$0" "$1" mcp --sandbox local --root "$2" ${extra.join(' ')} | tee "$3"`,
      process.execPath,
      main,
      root,
      stdoutFile,
    ],
    env: { ...env, NODE_OPTIONS: `--conditions=@sandkit/source --import tsx --import ${noisy}` },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const transportErrors: unknown[] = [];
  const client = new Client({ name: 'sandkit-test', version: '1.0.0' });
  client.onerror = (error) => transportErrors.push(error);
  await client.connect(transport, slow);
  return { client, stdoutFile, transportErrors, stderr: () => stderr };
}

async function stdoutLines(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
}

describe('sandkit mcp', () => {
  it('C01: serves the tools over stdio with nothing but JSON-RPC on stdout, also when dependencies log', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandkit-mcp-ws-'));
    await writeFile(join(root, 'a.txt'), 'alpha\nbeta\n');
    await writeFile(join(root, 'pic.png'), png);
    const server = await startServer(root);
    const { client } = server;
    try {
      const { tools } = await client.listTools(undefined, slow);
      const byName = new Map(tools.map((t) => [t.name, t]));
      expect([...byName.keys()]).toEqual(
        expect.arrayContaining(['read_file', 'edit_file', 'search_files', 'exec']),
      );
      expect(byName.get('read_file')!.inputSchema).toMatchObject({ type: 'object', required: ['path'] });
      expect(byName.get('read_file')!.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
      });
      expect(byName.get('exec')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });

      const read = await client.callTool(
        { name: 'read_file', arguments: { path: 'a.txt' } },
        undefined,
        slow,
      );
      expect(read.isError).toBe(false);
      expect((read.content as TextItem[])[0]!.text).toContain('2\tbeta');

      const edit = await client.callTool(
        {
          name: 'edit_file',
          arguments: { path: 'a.txt', edits: [{ oldText: 'beta', newText: 'gamma' }] },
        },
        undefined,
        slow,
      );
      expect(edit.isError).toBe(false);
      expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('alpha\ngamma\n');

      const search = await client.callTool(
        { name: 'search_files', arguments: { pattern: 'gam+a' } },
        undefined,
        slow,
      );
      expect(JSON.parse((search.content as TextItem[])[0]!.text!)).toMatchObject({
        matches: [{ path: 'a.txt', line: 2, text: 'gamma' }],
      });

      const exec = await client.callTool({
        name: 'exec',
        arguments: { command: 'echo hello-from-child; cat a.txt >&2' },
      });
      expect(exec.isError).toBe(false);
      expect((exec.content as TextItem[])[0]!.text).toContain('hello-from-child');

      const missing = await client.callTool(
        { name: 'read_file', arguments: { path: 'nope.txt' } },
        undefined,
        slow,
      );
      expect(missing.isError).toBe(true);
      expect((missing.content as TextItem[])[0]!.text).toContain('nope.txt');

      const bad = await client.callTool({ name: 'edit_file', arguments: { path: 'a.txt' } }, undefined, slow);
      expect(bad.isError).toBe(true);
      expect((bad.content as TextItem[])[0]!.text).toContain('edits');

      const image = await client.callTool(
        { name: 'read_file', arguments: { path: 'pic.png' } },
        undefined,
        slow,
      );
      expect((image.content as TextItem[]).find((c) => c.type === 'image')).toEqual({
        type: 'image',
        data: png.toString('base64'),
        mimeType: 'image/png',
      });
    } finally {
      await client.close();
    }
    const lines = await stdoutLines(server.stdoutFile);
    expect(lines.length).toBeGreaterThanOrEqual(9);
    for (const line of lines) {
      const message = JSON.parse(line) as { jsonrpc?: string };
      expect(message.jsonrpc).toBe('2.0');
    }
    expect(lines.filter((l) => l.includes('hello-from-child'))).toHaveLength(1);
    expect(server.transportErrors).toEqual([]);
    // the noisy dependency did run, and its output went to stderr
    expect(server.stderr()).toContain('[db] starting up');
    expect(server.stderr()).toContain('[db] connected');
    expect(server.stderr()).toContain('step done');
    expect(server.stderr()).toContain('raw line from a dependency');
  }, 600_000); // a real process started through tsx: slow on a loaded machine

  it('answers the calls read before stdin ended that finish within the grace period, then exits 0', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandkit-mcp-eof-'));
    await writeFile(join(root, 'a.txt'), 'alpha\n');
    const lines = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'exec', arguments: { command: 'sleep 1; echo late' } },
      },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'read_file', arguments: { path: 'a.txt' } },
      },
    ];
    const run = await execa(
      process.execPath,
      ['--conditions=@sandkit/source', '--import', 'tsx', main, 'mcp', '--sandbox', 'local', '--root', root],
      {
        input: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
        reject: false,
        timeout: 240_000,
      },
    );
    expect(run.exitCode).toBe(0);
    const replies = run.stdout
      .split('\n')
      .filter((line) => line !== '')
      .map(
        (line) => JSON.parse(line) as { id?: number; result?: { content?: TextItem[]; isError?: boolean } },
      );
    expect(replies.map((reply) => reply.id).sort()).toEqual([1, 2, 3]);
    const exec = replies.find((reply) => reply.id === 2);
    expect(exec?.result?.isError).toBe(false);
    expect(JSON.stringify(exec?.result?.content)).toContain('late');
    expect(JSON.stringify(replies.find((reply) => reply.id === 3)?.result?.content)).toContain('alpha');
  }, 300_000);
});
