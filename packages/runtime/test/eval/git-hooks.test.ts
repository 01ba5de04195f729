/** `runEval` and git hooks: no hook of the checkout runs in the harness's own git steps (R11). */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEval } from '../../src/eval/run-eval.js';
import { buildMirrors, miniInstances, readJsonl, tempDir, writeJsonl } from './eval-test-helpers.js';

let dir: string;
let cleanup: () => Promise<void>;
let mirrors: string;
let rows: Array<Record<string, unknown>>;
const id = 'sandkit-mini__ledger-2';

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('git-hooks'));
  mirrors = join(dir, 'mirrors');
  buildMirrors(mirrors);
  rows = await readJsonl(miniInstances);
});
afterAll(() => cleanup());

const row = () => rows.find((r) => r.instance_id === id) as Record<string, unknown>;

/** A `post-checkout` hook that writes `outside` (a file outside the sandbox) when it runs. */
const hookScript = (outside: string) => `#!/bin/sh\necho HOOK-RAN > '${outside}'\n`;

async function evalOne(name: string, instance: Record<string, unknown>, patch: string) {
  const dataset = join(dir, `${name}.jsonl`);
  const predictions = join(dir, `${name}-predictions.jsonl`);
  await writeJsonl(dataset, [instance]);
  await writeJsonl(predictions, [{ instance_id: id, model_name_or_path: 'm', model_patch: patch }]);
  const run = await runEval({
    dataset,
    predictions,
    out: join(dir, `${name}-out`),
    reposDir: mirrors,
    cacheDir: join(dir, 'cache'),
    workers: 1,
  });
  return run.results.get(id);
}

describe('runEval', () => {
  describe('when the model patch writes a hook into .git/', () => {
    it('R11: refuses it as a patch error saying why, and the hook never runs', async () => {
      const outside = join(dir, 'hook-from-patch-ran');
      const body = hookScript(outside).split('\n').slice(0, -1);
      const hook = [
        'diff --git a/.git/hooks/post-checkout b/.git/hooks/post-checkout',
        'new file mode 100755',
        '--- /dev/null',
        '+++ b/.git/hooks/post-checkout',
        `@@ -0,0 +1,${body.length} @@`,
        ...body.map((line) => `+${line}`),
        '',
      ].join('\n');
      const gold = String(row().patch);
      const result = await evalOne('from-patch', row(), `${gold.endsWith('\n') ? gold : `${gold}\n`}${hook}`);
      expect(result).toMatchObject({ status: 'error', error_kind: 'patch_apply', infra_error: false });
      expect(result?.error).toContain(
        'writes inside .git/ (.git/hooks/post-checkout): refused before any apply step',
      );
      expect(existsSync(outside)).toBe(false);
    }, 120_000);
  });

  describe('when the checkout holds a hook the harness did not write', () => {
    it('R11: runs none of it in the harness git steps (reset of the test files), and grades as usual', async () => {
      const outside = join(dir, 'hook-in-repo-ran');
      // the row's setup (run in the checkout before the model patch) installs the hook
      const instance = {
        ...row(),
        setup_cmd: `mkdir -p .git/hooks && printf '#!/bin/sh\\necho HOOK-RAN > %s\\n' '${outside}' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout`,
      };
      const result = await evalOne('in-repo', instance, String(row().patch));
      expect(result).toMatchObject({ status: 'resolved' });
      expect(existsSync(outside)).toBe(false);
    }, 120_000);
  });
});
