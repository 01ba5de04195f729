import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMirrors, miniInstances, readJsonl, runCli, tempDir, writeJsonl } from './eval-test-helpers.js';

// A real 1 MiB tmpfs under --out: only root can mount one.
const root = process.getuid?.() === 0;
let dir: string;
let cleanup: () => Promise<void>;
let mirrors: string;
const mounts: string[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('cli-disk-full'));
  mirrors = join(dir, 'mirrors');
  buildMirrors(mirrors);
});
afterAll(async () => {
  for (const mount of mounts) execFileSync('umount', [mount]);
  await cleanup();
});

async function smallDisk(name: string): Promise<string> {
  const mount = join(dir, name);
  await mkdir(mount);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mount]);
  mounts.push(mount);
  return mount;
}

/** Everything under `path`, recursively (relative names). */
async function listing(path: string): Promise<string[]> {
  return existsSync(path) ? (await readdir(path, { recursive: true })).map(String) : [];
}

async function runOn(out: string, name: string, rows: number) {
  const ledger = (await readJsonl(miniInstances)).find((i) => i.instance_id === 'sandkit-mini__ledger-2')!;
  const dataset = join(dir, `${name}.jsonl`);
  await writeJsonl(
    dataset,
    Array.from({ length: rows }, (_, n) => ({
      ...ledger,
      instance_id: `${name}-${n}`,
      // 400 KiB of test output per instance: four fill the 1 MiB disk
      test_cmd: `head -c 400K /dev/zero | tr '\\0' y | fold -w 100; ${ledger.test_cmd}`,
    })),
  );
  const sandboxRoot = join(dir, `${name}-tmp`);
  await mkdir(sandboxRoot);
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
  const run = await runCli([...args, '--out', out, '--workers', '2'], { TMPDIR: sandboxRoot });
  return { ...run, sandboxes: (await readdir(sandboxRoot)).filter((name) => name.startsWith('sandkit-')) };
}

const oneLine =
  /^sandkit eval: cannot write \S+: no space left on device \(\d+ bytes free\); free space and rerun with --resume$/m;

describe.skipIf(!root)('sandkit eval with a full disk under --out (a real 1 MiB tmpfs)', () => {
  it('R03: filling up mid-run stops with one line naming the file and free space, no sandbox and no temp file left, exit 1', async () => {
    const out = join(await smallDisk('fills'), 'out');
    const run = await runOn(out, 'fills', 4);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(oneLine);
    expect(run.stderr).not.toMatch(/\n\s+at |node:internal|ENOSPC/);
    expect(run.sandboxes).toEqual([]);
    expect((await listing(out)).filter((name) => name.includes('.tmp-'))).toEqual([]);
  }, 180_000);

  it('R03: a disk full from the start stops the same way before anything runs', async () => {
    const disk = await smallDisk('full');
    const out = join(disk, 'out');
    await mkdir(out);
    // fill it: dd stops at ENOSPC
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${join(disk, 'filler')}`, 'bs=64k'], { stdio: 'ignore' });
    } catch {
      // "No space left on device" is the point
    }
    const run = await runOn(out, 'full', 2);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(oneLine);
    expect(run.stderr).toMatch(/\(0 bytes free\)/);
    expect(run.stderr).not.toMatch(/\n\s+at |node:internal/);
    expect(run.sandboxes).toEqual([]);
    expect((await listing(out)).filter((name) => name.includes('.tmp-'))).toEqual([]);
  }, 120_000);

  it('R03: --resume removes a temp file a killed run left', async () => {
    const out = join(dir, 'stale');
    await mkdir(out, { recursive: true });
    // pid 2^22 + 1 is above Linux's pid_max limit: never a live process
    await writeFile(join(out, 'run_report.json.tmp-4194305-0'), '');
    const ledger = (await readJsonl(miniInstances)).find((i) => i.instance_id === 'sandkit-mini__ledger-2')!;
    const dataset = join(dir, 'stale.jsonl');
    await writeJsonl(dataset, [{ ...ledger, instance_id: 'stale-1' }]);
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
    const run = await runCli([...args, '--out', out, '--resume'], { TMPDIR: join(dir, 'stale-tmp') });
    expect(run.code).toBe(0);
    expect((await readdir(out)).filter((name) => name.includes('.tmp-'))).toEqual([]);
  }, 120_000);
});
