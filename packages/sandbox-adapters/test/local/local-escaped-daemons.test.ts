import { readdir, readFile, rmdir } from 'node:fs/promises';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { describe, expect, it } from 'vitest';

/** Running (not zombie) processes whose command line is exactly `sleep <n>`, for each n. */
async function runningSleeps(ns: readonly number[]): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'latin1').catch(() => '');
    const stat = await readFile(`/proc/${entry}/stat`, 'latin1').catch(() => '');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    for (const n of ns) if (cmdline === `sleep\0${n}\0` && state !== 'Z' && state !== 'X') found.push(n);
  }
  return found.sort();
}

async function settle(ns: readonly number[]): Promise<number[]> {
  const deadline = Date.now() + 3000;
  let left = await runningSleeps(ns);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 50));
    left = await runningSleeps(ns);
  }
  return left;
}

// Distinct numbers per test so parallel files cannot confuse them.
const escaping = (a: number, b: number, c: number, d: number): string =>
  `trap '' TERM; (trap '' TERM; sleep ${a}) & setsid sleep ${b} & (cd / && setsid sleep ${c} &); setsid -f sh -c 'cd /tmp; exec sleep ${d}'; wait`;

describe('local adapter: processes that left the group and the sandbox directory', () => {
  it('R14: a timeout SIGKILLs what the command detached with setsid and cd /, SIGTERM trapped', async () => {
    const handle = await createLocalSandboxAdapter().create();
    try {
      const ns = [31401, 31402, 31403, 31404];
      const result = await handle.client.exec(escaping(31401, 31402, 31403, 31404), { timeoutMs: 1500 });
      expect(result.timedOut).toBe(true);
      expect(await settle(ns)).toEqual([]);
    } finally {
      await handle.destroy();
    }
  }, 20_000);

  it('R14: an abort SIGKILLs what the command detached', async () => {
    const handle = await createLocalSandboxAdapter().create();
    try {
      const ns = [31411, 31412, 31413, 31414];
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 1000);
      const result = await handle.client.exec(escaping(31411, 31412, 31413, 31414), {
        signal: controller.signal,
      });
      expect(result.aborted).toBe(true);
      expect(await settle(ns)).toEqual([]);
    } finally {
      await handle.destroy();
    }
  }, 20_000);

  it('R14: destroy() SIGKILLs daemons that called setsid and cd / (ssh-agent style) and removes the dir', async () => {
    const root = `/tmp/sandkit-r14-${process.pid}`;
    const handle = await createLocalSandboxAdapter({ root }).create();
    const ns = [31421, 31422, 31423];
    const started = await handle.client.exec(
      `(cd / && trap '' TERM && setsid sleep 31421 >/dev/null 2>&1 &); setsid -f sh -c 'cd /tmp; trap "" TERM; exec sleep 31422' >/dev/null 2>&1; (cd / && exec setsid sleep 31423 >/dev/null 2>&1 &); eval $(ssh-agent -s) >/dev/null; echo $SSH_AGENT_PID`,
    );
    const agent = Number(started.stdout.trim());
    expect(agent).toBeGreaterThan(1);
    await new Promise((done) => setTimeout(done, 300));
    expect(await runningSleeps(ns)).toEqual(ns);
    expect(await readFile(`/proc/${agent}/cmdline`, 'latin1')).toMatch(/^ssh-agent/);
    await handle.destroy();
    expect(await settle(ns)).toEqual([]);
    const agentState = await readFile(`/proc/${agent}/stat`, 'latin1')
      .then((stat) => stat.slice(stat.lastIndexOf(')') + 2)[0])
      .catch(() => 'gone');
    expect(['gone', 'Z', 'X']).toContain(agentState);
    expect(await readdir(root)).toEqual([]);
    await rmdir(root);
  }, 20_000);
});
