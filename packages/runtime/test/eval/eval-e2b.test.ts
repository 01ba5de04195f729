/**
 * `sandkit eval --sandbox e2b` end to end: the CLI in its own process, the real `e2b` SDK
 * (E2B_API_URL / E2B_SANDBOX_URL), E2B's REST API and envd played by the stand-in, on the embedded
 * dataset. Two kinds of template, as on E2B: one without the code (the tree is uploaded), and one per
 * instance with the repository at `/testbed` at `base_commit`, built as a template built from an
 * official image would be (`setUser('root')`: root-owned `/testbed`, commands as root).
 * Each sandbox gets private copies of the template's directories (a mount namespace): needs root.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type E2BApiFake, type FakeTemplate, startE2BApiFake } from '@sandkit/sandbox-adapters/e2b-stand-in';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMirrors, miniInstances, readJsonl, runCli, tempDir } from './eval-test-helpers.js';

const apiKey = 'e2b_sandkit_eval_test';
/** Template directories need root and mount namespaces (`unshare --mount`). */
const asRoot = process.getuid?.() === 0 && spawnSync('unshare', ['--mount', '--', 'true']).status === 0;

/** The README's verdicts for the model-like predictions (also those of the local and docker runs). */
const wrongVerdicts = {
  'sandkit-mini__pager-1': 'resolved',
  'sandkit-mini__pager-2': 'resolved',
  'sandkit-mini__durations-1': 'unresolved',
  'sandkit-mini__durations-2': 'resolved',
  'sandkit-mini__ledger-1': 'unresolved',
  'sandkit-mini__ledger-2': 'empty_patch',
};

let dir: string;
let cleanup: () => Promise<void>;
let fake: E2BApiFake;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  if (!asRoot) return;
  ({ dir, cleanup } = await tempDir('e2b'));
  const mirrors = join(dir, 'mirrors');
  buildMirrors(mirrors);
  const templates: Record<string, FakeTemplate> = {
    // a template without the code: the harness uploads the tree into the sandbox's own home
    'sandkit-no-code': { directories: { '/home/user': null } },
  };
  for (const instance of await readJsonl<{ instance_id: string; repo: string; base_commit: string }>(
    miniInstances,
  )) {
    const testbed = join(dir, 'testbeds', instance.instance_id);
    execFileSync('git', ['clone', '-q', join(mirrors, instance.repo.replace('/', '__')), testbed]);
    execFileSync('git', ['-C', testbed, 'checkout', '-q', '--detach', instance.base_commit]);
    const id1776 = instance.instance_id.toLowerCase().replaceAll('__', '_1776_');
    templates[`sweb-eval-${id1776}`] = {
      user: 'root',
      directories: { '/home/user': null, '/testbed': testbed },
    };
    // the same image as a template that kept E2B's default user: /testbed is root's
    templates[`sweb-user-${id1776}`] = { directories: { '/home/user': null, '/testbed': testbed } };
  }
  fake = await startE2BApiFake({ apiKey, templates });
  env = { E2B_API_KEY: apiKey, E2B_API_URL: fake.url, E2B_SANDBOX_URL: fake.url };
}, 60_000);
afterAll(async () => {
  await fake?.close();
  await cleanup?.();
});

async function statuses(out: string): Promise<Record<string, string>> {
  const lines = await readJsonl<{ instance_id: string; status: string }>(join(out, 'results.jsonl'));
  return Object.fromEntries(lines.map((line) => [line.instance_id, line.status]));
}

/** Runs `sandkit eval --example --sandbox e2b` with 3 workers on the stand-in, into `dir/name`. */
async function evalOnE2B(name: string, imageFlags: string[]) {
  const out = join(dir, name);
  const run = await runCli(
    [
      'eval',
      '--example',
      '--sandbox',
      'e2b',
      ...imageFlags,
      '--workers',
      '3',
      '--out',
      out,
      '--cache-dir',
      join(dir, 'cache'),
    ],
    env,
  );
  return { out, run };
}

/** The template of every sandbox created on the stand-in so far, in order. */
function templatesCreated(): string[] {
  return fake.calls
    .filter((call) => call.method === 'POST' && call.path === '/v2/sandboxes')
    .map((call) => (call.body as { templateID: string }).templateID);
}

describe.skipIf(!asRoot)('sandkit eval --sandbox e2b (E2B stand-in)', () => {
  describe('when the template holds no code', () => {
    it('uploads the tree, resolves 6/6 gold patches and grades the wrong predictions as local and docker do', async () => {
      const { out, run } = await evalOnE2B('no-code', ['--image', 'sandkit-no-code']);
      expect(run.stderr).not.toMatch(/sandkit eval:/);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Resolved: 6 of 6');
      expect(await statuses(join(out, 'gold'))).toEqual(
        Object.fromEntries(Object.keys(wrongVerdicts).map((id) => [id, 'resolved'])),
      );
      expect(await statuses(join(out, 'wrong'))).toEqual(wrongVerdicts);
      const log = await readFile(join(out, 'gold', 'instances', 'sandkit-mini__pager-1', 'eval.log'), 'utf8');
      expect(log).toContain('the image has no repository at /testbed: uploading the tree');
      expect(log).toContain('checkout: git archive');
      // each sandbox had its own home; the host's stayed untouched
      expect(existsSync('/home/user/repo')).toBe(false);
      expect(new Set(templatesCreated())).toEqual(new Set(['sandkit-no-code']));
    }, 300_000);
  });

  describe("when the template's user cannot write /testbed", () => {
    it('ends each instance as a repo error that says how to build the template, and exits 3', async () => {
      const { out, run } = await evalOnE2B('not-writable', ['--image-template', 'sweb-user-{id_1776}']);
      expect(run.code).toBe(3);
      const results = await readJsonl<{ instance_id: string; error_kind?: string; error?: string }>(
        join(out, 'gold', 'results.jsonl'),
      );
      expect(results).toHaveLength(6);
      for (const result of results) {
        expect(result.error_kind).toBe('repo');
        expect(result.error).toBe(
          "/testbed is not writable by user (it belongs to root), so no patch can be applied: run the sandbox as that user (an E2B template built from the image: setUser('root'))",
        );
      }
    }, 300_000);
  });

  describe("when each instance's template holds the repository at /testbed", () => {
    it('evaluates in place with nothing uploaded, and gives the same verdicts', async () => {
      const { out, run } = await evalOnE2B('in-place', ['--image-template', 'sweb-eval-{id_1776}']);
      expect(run.stderr).not.toMatch(/sandkit eval:/);
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Resolved: 6 of 6');
      expect(await statuses(join(out, 'wrong'))).toEqual(wrongVerdicts);
      for (const id of Object.keys(wrongVerdicts)) {
        const log = await readFile(join(out, 'gold', 'instances', id, 'eval.log'), 'utf8');
        expect(log).toMatch(/\/testbed at [0-9a-f]{40}: evaluating in place/);
        expect(log).not.toContain('git archive');
      }
      expect(templatesCreated()).toContain('sweb-eval-sandkit-mini_1776_pager-1');
      // the template's own /testbed is untouched: each sandbox patched its private copy
      const head = execFileSync(
        'git',
        ['-C', join(dir, 'testbeds', 'sandkit-mini__pager-1'), 'status', '--porcelain'],
        {
          encoding: 'utf8',
        },
      );
      expect(head).toBe('');
    }, 300_000);
  });
});
