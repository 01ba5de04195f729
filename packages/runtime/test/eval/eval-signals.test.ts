import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildMirrors,
  cliEntry,
  miniInstances,
  readJsonl,
  repoRoot,
  runCli,
  tempDir,
  writeJsonl,
} from './eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let mirrors: string;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('cli-signals'));
  mirrors = join(dir, 'mirrors');
  buildMirrors(mirrors);
});
afterAll(() => cleanup());

/** Running (not zombie) processes whose environment names a sandbox under `root` (their cwd or tag). */
async function processesOf(marker: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'latin1').catch(() => '');
    const stat = await readFile(`/proc/${entry}/stat`, 'latin1').catch(() => '');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    if (cmdline.includes(marker) && state !== 'Z' && state !== 'X') found.push(cmdline.replaceAll('\0', ' '));
  }
  return found;
}

/**
 * Starts `sandkit eval` on two slow rows with two workers (TMPDIR = a fresh dir), waits until both
 * tests run, sends `signals` (one after the other, 300 ms apart) and returns its exit code,
 * stderr and what it left.
 */
async function interrupt(name: string, signals: NodeJS.Signals[], sleep: string) {
  const flag = join(dir, `${name}.slow`);
  await writeFile(flag, '');
  const ledger = (await readJsonl(miniInstances)).find((i) => i.instance_id === 'sandkit-mini__ledger-2');
  const dataset = join(dir, `${name}.jsonl`);
  // one test detaches a daemon that ignores SIGTERM and leaves the sandbox dir
  const rows = [1, 2].map((n) => ({
    ...ledger,
    instance_id: `${name}-${n}`,
    // slow (and leaving a daemon) only while the flag file exists, so a --resume run is quick
    test_cmd: `touch ../tests-started-${n}; if [ -e ${flag} ]; then (cd / && trap '' TERM && setsid sleep ${sleep}${n} >/dev/null 2>&1 &); sleep ${sleep}${n}; fi`,
  }));
  await writeJsonl(dataset, rows);
  const sandboxRoot = join(dir, `${name}-tmp`);
  await mkdir(sandboxRoot);
  const out = join(dir, name);
  const args = [
    'eval',
    '--dataset',
    dataset,
    '--gold',
    '--repos',
    mirrors,
    '--cache-dir',
    join(dir, 'cache'),
  ];
  // node itself, not the tsx wrapper (which does not relay SIGHUP), as a user's `sandkit` runs
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@sandkit/source', cliEntry, ...args, '--out', out, '--workers', '2'],
    { cwd: repoRoot, env: { ...process.env, TMPDIR: sandboxRoot }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const deadline = Date.now() + 60_000;
  const started = async (): Promise<number> => {
    let count = 0;
    for (const entry of await readdir(sandboxRoot))
      for (const n of [1, 2]) if (existsSync(join(sandboxRoot, entry, `tests-started-${n}`))) count += 1;
    return count;
  };
  while ((await started()) < 2) {
    if (Date.now() > deadline) throw new Error(`the tests never started: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 300));
  expect((await processesOf(`sleep\0${sleep}`)).length).toBeGreaterThanOrEqual(4);
  const closed = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  for (const signal of signals) {
    child.kill(signal);
    await new Promise((r) => setTimeout(r, 300));
  }
  const code = await closed;
  const left = (await readdir(sandboxRoot)).filter((e) => e.startsWith('sandkit-'));
  return {
    code,
    stderr,
    out,
    left,
    flag,
    dataset,
    sandboxRoot,
    processes: await processesOf(`sleep\0${sleep}`),
  };
}

function evalArgs(dataset: string): string[] {
  return ['eval', '--dataset', dataset, '--gold', '--repos', mirrors, '--cache-dir', join(dir, 'cache')];
}

/** Waits up to 3 s for the processes of `marker` to end. */
async function settled(marker: string): Promise<string[]> {
  const deadline = Date.now() + 3000;
  let left = await processesOf(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    left = await processesOf(marker);
  }
  return left;
}

describe('sandkit eval interrupted by a signal', () => {
  it.each([
    ['SIGTERM', 143, '47.31'],
    ['SIGHUP', 129, '47.32'],
  ] as const)(
    'R01: on %s destroys every sandbox and its processes, marks the report interrupted and exits %i',
    async (signal, exit, sleep) => {
      const run = await interrupt(signal.toLowerCase(), [signal], sleep);
      expect(run.stderr).toContain(`interrupted: stopping (${signal})`);
      expect(run.code).toBe(exit);
      expect(run.left).toEqual([]);
      expect(run.processes).toEqual([]);
      const report = JSON.parse(await readFile(join(run.out, 'run_report.json'), 'utf8'));
      expect(report).toMatchObject({ interrupted: true, completed_instances: 0 });
      expect(report.incomplete_ids.sort()).toEqual([
        `${signal.toLowerCase()}-1`,
        `${signal.toLowerCase()}-2`,
      ]);
    },
    120_000,
  );

  it('R01: a second Ctrl-C quits at once (130) and still leaves no sandbox dir and no process', async () => {
    const run = await interrupt('twice', ['SIGINT', 'SIGINT'], '47.33');
    expect(run.code).toBe(130);
    expect(run.left).toEqual([]);
    expect(run.processes).toEqual([]);
    expect(existsSync(join(run.out, 'results.jsonl'))).toBe(false);
  }, 120_000);

  it("R02: after kill -9, the --resume run SIGKILLs the killed run's sandbox processes and removes its sandboxes", async () => {
    const killed = await interrupt('killed', ['SIGKILL'], '47.34');
    expect(killed.code).toBe(null);
    // SIGKILL cannot be caught: the sandboxes (dir, .logs, .owner.json) and their processes are still there
    expect(killed.left.length).toBe(6);
    expect(killed.processes.length).toBeGreaterThanOrEqual(2);
    await rm(killed.flag);
    const resumed = await runCli(
      [...evalArgs(killed.dataset), '--out', killed.out, '--resume', '--workers', '2'],
      {
        TMPDIR: killed.sandboxRoot,
      },
    );
    expect(resumed.stderr).not.toMatch(/harness error/);
    expect((await readdir(killed.sandboxRoot)).filter((e) => e.startsWith('sandkit-'))).toEqual([]);
    expect(await settled('sleep\x0047.34')).toEqual([]);
  }, 120_000);

  it("R02: sandkit clean --dry-run lists a killed run's sandboxes, sandkit clean removes them and ends their processes", async () => {
    const killed = await interrupt('cleaned', ['SIGKILL'], '47.35');
    expect(killed.left.length).toBe(6);
    const dry = await runCli(['clean', '--sandbox', 'local', '--root', killed.sandboxRoot, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/local: would remove 2, kept 0/);
    expect((await readdir(killed.sandboxRoot)).filter((e) => e.startsWith('sandkit-')).length).toBe(6);
    expect((await processesOf('sleep\x0047.35')).length).toBeGreaterThanOrEqual(2);
    const clean = await runCli(['clean', '--sandbox', 'local', '--root', killed.sandboxRoot]);
    expect(clean.code).toBe(0);
    expect(clean.stdout).toMatch(/local: removed 2, kept 0/);
    expect((await readdir(killed.sandboxRoot)).filter((e) => e.startsWith('sandkit-'))).toEqual([]);
    expect(await settled('sleep\x0047.35')).toEqual([]);
  }, 120_000);
});
