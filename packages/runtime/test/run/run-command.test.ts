/**
 * The real `sandkit run` CLI with the real provider packages pointed at the model stand-in
 * (`--base-url`), on the embedded dataset with real sandboxes, git and test runners.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOracleInstance } from '../../src/cli/run-model.js';
import { loadInstances } from '../../src/eval/load/instance-loader.js';
import type { SweBenchInstance } from '../../src/eval/load/swe-bench-instance.js';
import { trajectoryPath } from '../../src/run/run-agent-benchmark.js';
import {
  alwaysMalformedToolCallScript,
  alwaysServerErrorScript,
  contextOverflowScript,
  neverStopsScript,
  oracleScript,
  rateLimitedOnceScript,
  unknownToolScript,
} from '../../src/run/stand-in/scripts.js';
import { startModelStandIn } from '../../src/run/stand-in/start-model-stand-in.js';
import { trajectorySchema } from '../../src/run/trajectory-schema.js';
import {
  buildMirrors,
  cliEntry,
  miniInstances,
  repoRoot,
  runCli,
  tempDir,
} from '../eval/eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let instances: SweBenchInstance[];
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('run-cli'));
  buildMirrors(join(dir, 'mirrors'));
  instances = (await loadInstances(miniInstances)).instances;
});
afterAll(() => cleanup());

const env = { ANTHROPIC_API_KEY: 'stand-in', XDG_CACHE_HOME: '' };

describe('sandkit run', () => {
  it('--example --eval runs the whole pipeline offline, says the model is the stand-in, and resolves 6 of 6', async () => {
    const out = join(dir, 'example');
    const run = await runCli(
      ['run', '--example', '--eval', '--out', out, '--cache-dir', join(dir, 'cache')],
      {
        XDG_CACHE_HOME: join(dir, 'xdg'),
      },
    );
    expect(run.stderr).toContain("sandkit's scripted model stand-in");
    expect(run.stdout).toContain("The model was sandkit's scripted stand-in");
    expect(run.stdout).toContain('not a language model');
    expect(run.stdout).toContain('# sandkit run summary');
    expect(run.stdout).toMatch(/\| 6 \| 6 \| 100\.0% \|/);
    expect(run.code).toBe(0);
    const preds = JSON.parse(await readFile(join(out, 'preds.json'), 'utf8'));
    expect(Object.keys(preds)).toHaveLength(6);
    expect(existsSync(join(out, 'eval', 'run_report.json'))).toBe(true);
  }, 120_000);

  it('ends each scripted misbehaviour with its documented status through the real CLI, and the run goes on', async () => {
    const oracle = oracleScript(instances.map(toOracleInstance));
    for (const [name, script, status, kind, retries] of [
      ['never', neverStopsScript(), 'step_limit', null, '0'],
      ['500', alwaysServerErrorScript(), 'model_error', 'server_error', '0'],
      ['overflow', contextOverflowScript('anthropic'), 'context_overflow', 'context_overflow', '0'],
      ['malformed', alwaysMalformedToolCallScript(), 'format_error', null, '0'],
      // the tool error goes back to the model, which then answers: the run is not broken by it
      ['unknown-tool', unknownToolScript(), 'submitted', null, '0'],
      // a 429 with retry-after: 1, then the oracle: retried, not an error
      ['429', rateLimitedOnceScript(oracle), 'submitted', null, '1'],
    ] as const) {
      const standIn = await startModelStandIn({ script });
      try {
        const out = join(dir, `cli-${name}`);
        const run = await runCli(
          [
            'run',
            '--dataset',
            miniInstances,
            '--repos',
            join(dir, 'mirrors'),
            '--model',
            'anthropic:stand-in',
            '--base-url',
            standIn.baseURL,
            '--instance-ids',
            'sandkit-mini__pager-1,sandkit-mini__ledger-1',
            '--step-limit',
            '3',
            '--max-retries',
            retries,
            '--out',
            out,
          ],
          env,
        );
        expect(run.code, run.stderr).toBe(0);
        const record = JSON.parse(await readFile(join(out, 'run.json'), 'utf8'));
        expect(record.status_counts[status], name).toBe(2);
        expect(run.stderr).toContain(`sandkit-mini__pager-1: ${status}`);
        const traj = trajectorySchema.parse(
          JSON.parse(await readFile(trajectoryPath(out, 'sandkit-mini__pager-1'), 'utf8')),
        );
        expect(traj.error?.kind ?? null, name).toBe(kind);
        if (name === 'unknown-tool' || name === 'malformed')
          expect(traj.steps[0]?.tool_calls[0], name).toMatchObject({ is_error: true, duration_ms: null });
      } finally {
        await standIn.close();
      }
    }
  }, 120_000);

  it('after kill -9 mid-run, --resume finishes it: each instance once in preds.json, every trajectory valid, no sandbox left', async () => {
    const standIn = await startModelStandIn({ script: oracleScript(instances.map(toOracleInstance)) });
    const out = join(dir, 'killed');
    const args = [
      'run',
      '--dataset',
      miniInstances,
      '--repos',
      join(dir, 'mirrors'),
      '--model',
      'anthropic:stand-in',
      '--base-url',
      standIn.baseURL,
      '--workers',
      '1',
      '--out',
      out,
    ];
    try {
      const child = spawn(
        join(repoRoot, 'node_modules/.bin/tsx'),
        ['--conditions=@sandkit/source', cliEntry, ...args],
        { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      await new Promise<void>((resolve) => {
        child.stderr.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('[2] ')) {
            child.kill('SIGKILL');
            resolve();
          }
        });
        child.on('exit', () => resolve());
      });
      await new Promise((resolve) => child.on('exit', resolve));
      const resumed = await runCli([...args, '--resume'], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      const preds = JSON.parse(await readFile(join(out, 'preds.json'), 'utf8'));
      expect(Object.keys(preds).sort()).toEqual(instances.map((i) => i.instance_id).sort());
      for (const instance of instances) {
        const traj = trajectorySchema.parse(
          JSON.parse(await readFile(trajectoryPath(out, instance.instance_id), 'utf8')),
        );
        expect(traj.exit_status).toBe('submitted');
      }
      const record = JSON.parse(await readFile(join(out, 'run.json'), 'utf8'));
      expect(record.finished).toBe(6);
      expect(record.ran).toBeLessThan(6);
      expect(existsSync(join(out, '.sandboxes'))).toBe(false);
    } finally {
      await standIn.close();
    }
  }, 180_000);

  it('stops the whole run at the first 401 with a message naming the key variable (exit 3), and --resume finishes it', async () => {
    const refusing = await startModelStandIn({
      script: () => ({
        type: 'http_error',
        status: 401,
        body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
      }),
    });
    const good = await startModelStandIn({ script: oracleScript(instances.map(toOracleInstance)) });
    const out = join(dir, 'refused');
    const three = instances.slice(0, 3).map((i) => i.instance_id);
    const args = (baseURL: string) => [
      'run',
      '--dataset',
      miniInstances,
      '--repos',
      join(dir, 'mirrors'),
      '--model',
      'anthropic:stand-in',
      '--base-url',
      baseURL,
      '--instance-ids',
      three.join(','),
      '--workers',
      '1',
      '--out',
      out,
    ];
    try {
      const run = await runCli(args(refusing.baseURL), env);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr).toContain('the provider refused the credentials');
      expect(run.stderr).toContain('ANTHROPIC_API_KEY');
      expect(run.stderr).toContain('invalid x-api-key');
      // one request: a 401 is not retried, and no other instance was started
      expect(refusing.requests()).toBe(1);
      const record = JSON.parse(await readFile(join(out, 'run.json'), 'utf8'));
      expect(record.stopped).toMatchObject({ reason: 'auth', instance_id: instances[0]?.instance_id });
      expect(record.finished).toBe(0);
      expect(JSON.parse(await readFile(join(out, 'preds.json'), 'utf8'))).toEqual({});
      const resumed = await runCli([...args(good.baseURL), '--resume'], env);
      expect(resumed.code, resumed.stderr).toBe(0);
      const preds = JSON.parse(await readFile(join(out, 'preds.json'), 'utf8'));
      expect(Object.keys(preds).sort()).toEqual([...three].sort());
    } finally {
      await refusing.close();
      await good.close();
    }
  }, 180_000);

  it('refuses a cost limit for a model without a known price, saying to give --price (exit 2)', async () => {
    const run = await runCli(
      [
        'run',
        '--dataset',
        miniInstances,
        '--model',
        'openai-compatible:local-model',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--cost-limit',
        '1',
        '--out',
        join(dir, 'noprice'),
      ],
      env,
    );
    expect(run.stderr).toContain('--price');
    expect(run.code).toBe(2);
  });
});
