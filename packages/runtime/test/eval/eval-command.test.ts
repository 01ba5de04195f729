import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
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
  ({ dir, cleanup } = await tempDir('cli'));
  mirrors = join(dir, 'mirrors');
  buildMirrors(mirrors);
});
afterAll(() => cleanup());

/** `sandkit eval` of `dataset`'s gold patches against the mirrors, into `out` (the run's argv). */
function goldArgs(dataset: string, out: string): string[] {
  return [
    'eval',
    '--dataset',
    dataset,
    '--gold',
    '--repos',
    mirrors,
    '--cache-dir',
    join(dir, 'cache'),
    '--out',
    out,
  ];
}

describe('sandkit eval', () => {
  it('prints help a newcomer can follow: inputs, outputs, units, exit codes', async () => {
    const { code, stdout } = await runCli(['eval', '--help']);
    expect(code).toBe(0);
    for (const text of [
      '--dataset <file>',
      '--predictions <file>',
      '--gold',
      '--repos <dir>',
      '--workers <n>',
      '--max-sandboxes <n>',
      '--timeout <seconds>',
      '--resume',
      'run_report.json',
      'Exit codes',
      '3    run completed, but some instances ended as infrastructure errors',
    ]) {
      expect(stdout).toContain(text);
    }
  });

  it('exits 2 with a clear message on usage errors', async () => {
    const [both, missing, unknown] = await Promise.all([
      runCli([
        'eval',
        '--dataset',
        miniInstances,
        '--gold',
        '--predictions',
        miniInstances,
        '--out',
        join(dir, 'x'),
      ]),
      runCli(['eval', '--gold']),
      runCli([
        'eval',
        '--dataset',
        miniInstances,
        '--gold',
        '--out',
        join(dir, 'y'),
        '--instance-ids',
        'nope-1',
      ]),
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/exactly one of --predictions FILE and --gold/);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--dataset/);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/not in the dataset: nope-1/);
  }, 120_000);

  it('exits 2 for a --creates-per-second that is not a rate, saying what to give, and writes nothing', async () => {
    const runs = await Promise.all(
      ['0', 'abc', '1e-9'].map((rate) =>
        runCli([
          'eval',
          '--dataset',
          miniInstances,
          '--gold',
          '--out',
          join(dir, `rate-${rate}`),
          '--creates-per-second',
          rate,
        ]),
      ),
    );
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('must be a number of creates per second, at least 0.001');
      expect(run.stderr).toContain('5 for E2B Pro');
    }
    for (const rate of ['0', 'abc', '1e-9']) expect(existsSync(join(dir, `rate-${rate}`))).toBe(false);
  }, 120_000);

  it('exits 2 before any instance runs when the dataset holds no record (0 bytes, or no line is JSON)', async () => {
    await writeFile(join(dir, 'empty.jsonl'), '');
    await writeFile(join(dir, 'garbage.jsonl'), 'garbage\n');
    const [empty, garbage] = await Promise.all(
      ['empty', 'garbage'].map((name) =>
        runCli([
          'eval',
          '--dataset',
          join(dir, `${name}.jsonl`),
          '--gold',
          '--out',
          join(dir, `no-record-${name}`),
        ]),
      ),
    );
    expect(empty?.code).toBe(2);
    expect(empty?.stderr).toContain(
      `--dataset ${join(dir, 'empty.jsonl')} holds no instance; give a SWE-bench`,
    );
    expect(garbage?.code).toBe(2);
    expect(garbage?.stderr).toContain('1 record cannot be used, so nothing ran');
    expect(garbage?.stderr).toContain('garbage.jsonl line 1: not valid JSON');
    expect(existsSync(join(dir, 'no-record-empty'))).toBe(false);
  }, 120_000);

  describe('when the image options do not fit', () => {
    it.each([
      [
        ['--sandbox', 'docker', '--image-template', 'reg/{name}:{tag}'],
        '--image-template reg/{name}:{tag} has an unknown placeholder {name}; the placeholders are {id}, {id_1776}, {namespace}, {tag}, {arch}, {repo}',
      ],
      [
        ['--sandbox', 'e2b', '--image-template', 'one-template'],
        'names the same image for every instance; put {id} or {id_1776} in it (or {repo}), or give that one image with --image',
      ],
      [
        ['--image-template', 'reg/{id_1776}'],
        '--image-template names Docker images or E2B templates, and --sandbox local runs none (it clones each repository on the host): add --sandbox docker or --sandbox e2b, or drop --image-template',
      ],
      [['--image', 'my/env'], 'drop --image'],
      [
        ['--sandbox', 'docker', '--image', ''],
        '--image must be one image reference (or E2B template) without spaces, got ""',
      ],
      [['--sandbox', 'docker', '--image', 'my env'], 'without spaces, got "my env"'],
      [
        ['--sandbox', 'docker', '--image', 'my/env', '--image-template', 'reg/{id}'],
        '--image gives one image to every instance and --image-template names one per instance: give only one of them',
      ],
    ])('exits 2 before any instance runs for %j', async (flags, message) => {
      const out = join(dir, `usage-${flags.join('-').replace(/[^\w-]/g, '')}`);
      const run = await runCli(['eval', '--dataset', miniInstances, '--gold', '--out', out, ...flags]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(message);
      expect(existsSync(out)).toBe(false);
    });

    it('checks them with --example too, before building or replacing anything', async () => {
      const out = join(dir, 'usage-example');
      const cache = join(dir, 'usage-example-cache');
      const run = await runCli([
        'eval',
        '--example',
        '--sandbox',
        'e2b',
        '--image-template',
        'sweb-{instance}',
        '--out',
        out,
        '--cache-dir',
        cache,
      ]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('unknown placeholder {instance}');
      expect(existsSync(out) || existsSync(cache)).toBe(false);
    });
  });

  describe('when instances end as infrastructure errors', () => {
    it('exits 3 and names them when the engine is down, and when only one of several failed', async () => {
      const ledger = (await readJsonl(miniInstances)).find((i) => i.instance_id === 'sandkit-mini__ledger-1');
      const dataset = join(dir, 'one-missing-repo.jsonl');
      await writeJsonl(dataset, [
        ledger,
        { ...ledger, instance_id: 'nobody__missing-1', repo: 'nobody/missing' },
      ]);
      const [down, mixed] = await Promise.all([
        runCli(
          [
            'eval',
            '--dataset',
            miniInstances,
            '--gold',
            '--instance-ids',
            'sandkit-mini__ledger-1',
            '--sandbox',
            'docker',
            '--image',
            'sandkit/none:latest',
            '--infra-retries',
            '0',
            '--timeout',
            '60',
            '--out',
            join(dir, 'engine-down'),
          ],
          { DOCKER_HOST: `unix://${join(dir, 'no-engine.sock')}` },
        ),
        runCli(goldArgs(dataset, join(dir, 'one-missing'))),
      ]);
      expect(down.code).toBe(3);
      expect(down.stderr).toContain(
        'sandkit eval: 1 instance ended as an infrastructure error (sandkit-mini__ledger-1): no verdict for it, so the score is not comparable',
      );
      expect(mixed.stdout).toMatch(/\| sandkit-mini__ledger-1 \| resolved \|/);
      expect(mixed.code).toBe(3);
      expect(mixed.stderr).toContain('1 instance ended as an infrastructure error (nobody__missing-1)');
    }, 180_000);
  });

  it('grades the embedded dataset with --gold: all resolved, every file written; resuming the complete run does nothing and exits 0', async () => {
    const out = join(dir, 'gold');
    const args = [...goldArgs(miniInstances, out), '--workers', '2'];
    const run = await runCli(args);
    expect(run.stderr).toMatch(/\[6\/6\] sandkit-mini__\S+ resolved/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\| 6 \| 6 \| 6 \| 6 \| 0 \| 0 \| 0 \| 0 \| 0 \|/);
    const report = JSON.parse(await readFile(join(out, 'run_report.json'), 'utf8'));
    expect(report).toMatchObject({
      total_instances: 6,
      resolved_instances: 6,
      error_instances: 0,
      schema_version: 2,
    });
    for (const id of report.resolved_ids as string[]) {
      expect((await readdir(join(out, 'instances', id))).sort()).toEqual([
        'eval.log',
        'eval.sh',
        'patch.diff',
        'report.json',
        'test_output.txt',
      ]);
    }
    const log = await readFile(join(out, 'instances/sandkit-mini__ledger-1/eval.log'), 'utf8');
    expect(log).toMatch(
      /test command \(default, parser unittest\): python3 -m unittest -v tests\.test_book\n/,
    );
    expect(log).toMatch(/eval script: exit 0 in \d+ ms/);
    expect(log).toMatch(/tests: exit 0; output in test_output\.txt/);
    const results = await readFile(join(out, 'results.jsonl'), 'utf8');

    const again = await runCli([...args, '--resume']);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/nothing to do/);
    expect(await readFile(join(out, 'results.jsonl'), 'utf8')).toBe(results);
    const refused = await runCli(args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/pass --resume/);
  }, 180_000);

  it('orders a second run longest first by the durations cache the first one filled; --no-durations-cache turns it off', async () => {
    const cache = join(dir, 'durations-cache');
    const ids = ['--instance-ids', 'sandkit-mini__pager-1,sandkit-mini__ledger-1,sandkit-mini__durations-2'];
    const runInto = (name: string, more: string[], env: NodeJS.ProcessEnv = {}) =>
      runCli([...goldArgs(miniInstances, join(dir, name)), '--workers', '1', ...ids, ...more], env);

    // the first run: through the environment variable, as a CI job would set it
    const first = await runInto('cache-1', [], { SANDKIT_DURATIONS_CACHE: cache });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(
      `schedule: --schedule auto: dataset order, none of the 3 instance(s) has a time in the durations cache in ${cache} (a first run; its times are recorded for the next)`,
    );
    expect(existsSync(join(cache, 'durations-v1.json'))).toBe(true);
    const times = new Map(
      (
        await readJsonl<{ instance_id: string; script_ms: number }>(join(dir, 'cache-1', 'results.jsonl'))
      ).map((line) => [line.instance_id, line.script_ms]),
    );

    const second = await runInto('cache-2', ['--durations-cache', cache]);
    expect(second.code).toBe(0);
    const reason = `--schedule auto: longest first by the durations cache in ${cache}, 3 of 3 instance(s) have a time`;
    expect(second.stderr).toContain(`schedule: ${reason}`);
    expect(second.stdout).toContain(`Schedule: ${reason}.`);
    const order = (await readJsonl<{ instance_id: string }>(join(dir, 'cache-2', 'results.jsonl'))).map(
      (line) => line.instance_id,
    );
    expect(order).toEqual([...times.keys()].sort((a, b) => times.get(b)! - times.get(a)!));

    const off = await runInto('cache-3', ['--durations-cache', cache, '--no-durations-cache']);
    expect(off.code).toBe(0);
    expect(off.stderr).toContain(
      'schedule: --schedule auto: dataset order, no earlier times (the durations cache is off and no --durations)',
    );
  }, 180_000);

  it('on Ctrl-C kills the running tests, destroys the sandbox, writes a consistent report and exits 130', async () => {
    const ledger = (await readJsonl(miniInstances)).find((i) => i.instance_id === 'sandkit-mini__ledger-2');
    const dataset = join(dir, 'slow.jsonl');
    await writeJsonl(dataset, [
      { ...ledger, instance_id: 'slow-1', test_cmd: 'touch ../tests-started; sleep 47.25' },
    ]);
    const sandboxRoot = join(dir, 'tmp');
    await mkdir(sandboxRoot);
    const out = join(dir, 'interrupted');
    const child = spawn(
      join(repoRoot, 'node_modules/.bin/tsx'),
      ['--conditions=@sandkit/source', cliEntry, ...goldArgs(dataset, out)],
      {
        cwd: repoRoot,
        env: { ...process.env, TMPDIR: sandboxRoot },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const started = async (): Promise<boolean> => {
      for (const entry of await readdir(sandboxRoot))
        if (existsSync(join(sandboxRoot, entry, 'tests-started'))) return true;
      return false;
    };
    const deadline = Date.now() + 60_000;
    while (!(await started())) {
      if (Date.now() > deadline) throw new Error(`the tests never started: ${stderr}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(stderr).toMatch(/interrupted: stopping/);
    expect(code).toBe(130);
    expect((await readdir(sandboxRoot)).filter((e) => e.startsWith('sandkit-'))).toEqual([]);
    expect(() => execFileSync('pgrep', ['-f', 'sleep 47.25'])).toThrow();
    const report = JSON.parse(await readFile(join(out, 'run_report.json'), 'utf8'));
    expect(report).toMatchObject({ interrupted: true, incomplete_ids: ['slow-1'], completed_instances: 0 });
    expect(await readFile(join(out, 'summary.md'), 'utf8')).toMatch(/The run was interrupted/);
    expect(existsSync(join(out, 'results.jsonl'))).toBe(false);
  }, 120_000);
});
