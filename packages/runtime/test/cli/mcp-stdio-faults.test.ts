import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The CLI's source entry, run as `pnpm sandkit` runs it (tsx, the `@sandkit/source` condition). */
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

type Reply = {
  id?: number | string | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
};

/** The real `sandkit mcp` process, spoken to in raw JSON-RPC lines. */
class RawServer {
  readonly replies: Reply[] = [];
  stderr = '';
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  private buffer = '';
  private waiters: Array<() => void> = [];

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString();
      const lines = this.buffer.split('\n');
      this.buffer = lines.pop()!;
      for (const line of lines) if (line !== '') this.replies.push(JSON.parse(line) as Reply);
      for (const wake of this.waiters.splice(0)) wake();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    child.stdin.on('error', () => {}); // EPIPE after an exit is checked through `exited`
    this.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  static async start(root: string): Promise<RawServer> {
    const child = spawn(
      process.execPath,
      ['--conditions=@sandkit/source', '--import', 'tsx', main, 'mcp', '--sandbox', 'local', '--root', root],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const server = new RawServer(child);
    server.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    await server.reply(1);
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return server;
  }

  send(message: unknown): void {
    this.line(JSON.stringify(message));
  }

  line(text: string): void {
    this.child.stdin.write(`${text}\n`);
  }

  /** The `n`-th reply (0-based) whose id is `id`, waiting for it. */
  async reply(id: number | string | null, n = 0): Promise<Reply> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error(`no reply ${id} within 120 s; stderr: ${this.stderr}`);
      const found = this.replies.filter((reply) => reply.id === id && 'id' in reply)[n];
      if (found) return found;
      await new Promise<void>((resolve, reject) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 1000);
        void this.exited.then(({ code }) =>
          reject(new Error(`server exited (${code}) before reply ${id}; stderr: ${this.stderr}`)),
        );
      });
    }
  }

  call(id: number, name: string, args: unknown): void {
    this.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  }
}

function toolText(reply: Reply): string {
  return ((reply.result?.content as Array<{ text?: string }>) ?? []).map((part) => part.text).join('');
}

/** Pids of live (non-zombie) processes whose command line contains `needle`, from /proc. */
async function processesWith(needle: string): Promise<number[]> {
  const found: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cmdline = await readFile(`/proc/${name}/cmdline`, 'latin1').catch(() => '');
    const stat = await readFile(`/proc/${name}/stat`, 'latin1').catch(() => '');
    if (cmdline.split('\0').join(' ').includes(needle) && !/\) Z /.test(stat)) found.push(Number(name));
  }
  return found;
}

async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return check();
}

describe('sandkit mcp on a raw stdio stream', () => {
  it('R12: answers a request line over the limit with an error and keeps serving', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandkit-mcp-r12-'));
    const server = await RawServer.start(root);
    try {
      // a foreground command in flight must live through the oversized line and answer
      server.call(2, 'exec', { command: 'sleep 2; echo still-here' });
      const big = 'x'.repeat(33 * 1024 * 1024);
      server.line(
        `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"write_file","arguments":{"path":"big.txt","content":"${big}"}}}`,
      );
      const refused = await server.reply(3);
      expect(refused.error?.code).toBe(-32600);
      expect(refused.error?.message).toContain('33554432 bytes');
      // the same without an id in front: the id cannot be known, so it is null
      server.line(`{"params":{"content":"${big}"},"jsonrpc":"2.0","id":4,"method":"tools/call"}`);
      const anonymous = await server.reply(null);
      expect(anonymous.error?.code).toBe(-32600);
      expect(toolText(await server.reply(2))).toContain('still-here');
      // 11 MiB (over the SDK's 10 MiB) is read and gets the tool's own error
      server.call(5, 'write_file', { path: 'big.txt', content: 'y'.repeat(11 * 1024 * 1024) });
      const tooBig = await server.reply(5);
      expect(tooBig.result?.isError).toBe(true);
      expect(toolText(tooBig)).toContain('byte limit');
      server.call(6, 'write_file', { path: 'small.txt', content: 'ok\n' });
      expect((await server.reply(6)).result?.isError).toBe(false);
      expect(await readFile(join(root, 'small.txt'), 'utf8')).toBe('ok\n');
      server.child.stdin.end();
      expect(await server.exited).toEqual({ code: 0, signal: null });
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 300_000);

  it('R12: logs an input error to stderr and does not exit 0', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandkit-mcp-r12e-'));
    const server = await RawServer.start(root);
    // the client goes away with its end of our stdout: the next reply cannot be written
    server.child.stdout.destroy();
    server.call(2, 'read_file', { path: 'nothing.txt' });
    const exit = await server.exited;
    expect(exit.code).not.toBe(0);
    expect(server.stderr).toMatch(/sandkit mcp: cannot write to stdout/);
  }, 300_000);

  it('R15: answers malformed JSON-RPC with -32700 and -32600, and bad tools/call params with -32602', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sandkit-mcp-r15-'));
    await writeFile(join(root, 'a.txt'), 'alpha\n');
    const server = await RawServer.start(root);
    try {
      const errorsBefore = () => server.replies.filter((reply) => reply.id === null).length;
      const expectNullError = async (line: string, code: number, text: RegExp) => {
        const n = errorsBefore();
        server.line(line);
        const reply = await server.reply(null, n);
        expect(reply.error?.code, line).toBe(code);
        expect(reply.error?.message, line).toMatch(text);
      };
      await expectNullError('{"jsonrpc":"2.0","id":77,"method":"tools/list"', -32700, /Parse error/);
      await expectNullError('not json at all', -32700, /not JSON/);
      await expectNullError('[1,2,3]', -32600, /batch/);
      await expectNullError('[]', -32600, /batch/);
      await expectNullError('42', -32600, /Invalid Request/);
      await expectNullError('{"jsonrpc":"2.0","method":5}', -32600, /Invalid Request/);
      server.line('{"jsonrpc":"2.0","id":78}');
      expect((await server.reply(78)).error?.code).toBe(-32600);
      server.line('{"jsonrpc":"1.0","id":"s79","method":"tools/list"}');
      expect((await server.reply('s79')).error?.code).toBe(-32600);

      for (const [id, args, text] of [
        [80, [1], /arguments of "read_file" must be a JSON object .* got an array/],
        [81, 'a.txt', /must be a JSON object .* got a string/],
        [82, null, /got null/],
      ] as const) {
        server.call(id, 'read_file', args);
        const reply = await server.reply(id);
        expect(reply.error?.code).toBe(-32602);
        expect(reply.error?.message).toMatch(text);
        expect(reply.error?.message).not.toContain('"expected"');
      }
      server.send({ jsonrpc: '2.0', id: 83, method: 'tools/call', params: { arguments: {} } });
      expect((await server.reply(83)).error).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/name/),
      });
      server.send({ jsonrpc: '2.0', id: 84, method: 'tools/call', params: [1] });
      expect((await server.reply(84)).error?.code).toBe(-32602);

      // still serving
      server.send({ jsonrpc: '2.0', id: 85, method: 'tools/list' });
      expect((await server.reply(85)).result?.tools).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: 'read_file' })]),
      );
      server.call(86, 'read_file', { path: 'a.txt' });
      expect(toolText(await server.reply(86))).toContain('alpha');
    } finally {
      server.child.kill('SIGKILL');
    }
  }, 300_000);

  const stops = [
    ['stdin closed', (server: RawServer) => server.child.stdin.end(), 0],
    ['SIGTERM', (server: RawServer) => server.child.kill('SIGTERM'), 143],
    ['SIGHUP', (server: RawServer) => server.child.kill('SIGHUP'), 129],
    ['SIGINT', (server: RawServer) => server.child.kill('SIGINT'), 130],
  ] as const;
  for (const [stop, act, exitCode] of stops) {
    it(`R13: on ${stop}, aborts running calls, kills every process it started and exits`, async () => {
      const root = await mkdtemp(join(tmpdir(), 'sandkit-mcp-r13-'));
      const tag = `${process.pid}${Math.floor(Math.random() * 1e6)}`;
      // distinct sleep lengths name this test's processes in /proc
      const n = (k: number) => `${k}.${tag}`;
      const server = await RawServer.start(root);
      try {
        server.call(2, 'exec', { command: `sleep ${n(201)}`, background: true });
        expect((await server.reply(2)).result?.isError).toBe(false);
        server.call(3, 'exec', {
          command: `(cd / && setsid sleep ${n(202)} >/dev/null 2>&1 &); setsid -f sh -c 'cd /tmp; exec sleep ${n(203)}' >/dev/null 2>&1; echo started`,
          background: true,
        });
        expect((await server.reply(3)).result?.isError).toBe(false);
        // no marker in its environment: found through its pid file (its group is the background's)
        server.call(5, 'exec', { command: `env -i /bin/sleep ${n(205)}`, background: true });
        expect((await server.reply(5)).result?.isError).toBe(false);
        server.call(4, 'exec', {
          command: `(cd / && setsid sleep ${n(204)} >/dev/null 2>&1 &); sleep ${n(40)}`,
          timeoutMs: 600_000,
        });
        const all = [201, 202, 203, 204, 205, 40].map(n);
        const started = await waitFor(
          async () =>
            (await Promise.all(all.map((s) => processesWith(`sleep ${s}`)))).every((p) => p.length > 0),
          60_000,
        );
        expect(started).toBe(true);
        const stoppedAt = Date.now();
        act(server);
        const exit = await server.exited;
        const took = Date.now() - stoppedAt;
        expect(exit).toEqual({ code: exitCode, signal: null });
        // the foreground call got its answer: aborted, not finished (sleep 40 would take 40 s)
        const aborted = await server.reply(4);
        expect(aborted.result?.isError).toBe(true);
        expect(toolText(aborted)).toMatch(/aborted/);
        expect(took).toBeLessThan(20_000);
        for (const s of all) expect(await processesWith(`sleep ${s}`), `sleep ${s}`).toEqual([]);
      } finally {
        server.child.kill('SIGKILL');
        for (const s of [201, 202, 203, 204, 205, 40].map(n))
          for (const pid of await processesWith(`sleep ${s}`)) process.kill(pid, 'SIGKILL');
      }
    }, 300_000);
  }
});
