/**
 * Whole evaluation scripts, written by hand from SWE-bench v4.1.0's `make_eval_script_list_py` /
 * `make_eval_script_list_common` / `make_eval_script_list_js` and `TestSpec.eval_script`
 * (726c5461e2ef52d83cf1ea2107870a8bb3328d57).
 */
import { describe, expect, it } from 'vitest';
import { officialEvalScript } from '../../../src/eval/specs/official-eval-script.js';

const base = '419a78300f7cd27611196e1e464d50fd0385ff27';
const djangoPatch = `diff --git a/tests/auth_tests/test_validators.py b/tests/auth_tests/test_validators.py
--- a/tests/auth_tests/test_validators.py
+++ b/tests/auth_tests/test_validators.py
@@ -1 +1 @@
-a
+b`;

describe('officialEvalScript', () => {
  describe('when the row is Python (django 3.0)', () => {
    it('writes the official script: activation, eval_commands, install, reset, test patch, markers', () => {
      const script = officialEvalScript({
        instance_id: 'django__django-11099',
        repo: 'django/django',
        version: '3.0',
        base_commit: base,
        test_patch: djangoPatch,
      });
      expect(script).toBe(`#!/bin/bash
set -uxo pipefail
source /opt/miniconda3/bin/activate
conda activate testbed
cd /testbed
sed -i '/en_US.UTF-8/s/^# //g' /etc/locale.gen && locale-gen
export LANG=en_US.UTF-8
export LANGUAGE=en_US:en
export LC_ALL=en_US.UTF-8
git config --global --add safe.directory /testbed
cd /testbed
git status
git show
git -c core.fileMode=false diff ${base}
source /opt/miniconda3/bin/activate
conda activate testbed
python -m pip install -e .
git checkout ${base} tests/auth_tests/test_validators.py
git apply -v - <<'EOF_114329324912'
${djangoPatch}
EOF_114329324912
: '>>>>> Start Test Output'
./tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 auth_tests.test_validators
: '>>>>> End Test Output'
git checkout ${base} tests/auth_tests/test_validators.py
`);
    });

    it('leaves "git checkout <base> " with its trailing space when the patch only adds files', () => {
      const added =
        'diff --git a/t.py b/t.py\nnew file mode 100644\n--- /dev/null\n+++ b/t.py\n@@ -0,0 +1 @@\n+x';
      const script = officialEvalScript({
        instance_id: 'pallets__flask-1',
        repo: 'pallets/flask',
        version: '2.3',
        base_commit: base,
        test_patch: added,
      });
      expect(script.split('\n').filter((line) => line.startsWith('git checkout'))).toEqual([
        `git checkout ${base} `,
        `git checkout ${base} `,
      ]);
    });
  });

  describe('when the row is Go (caddy 6411)', () => {
    it('writes the common script: reset, test patch with --reject, the command between markers', () => {
      const patch =
        'diff --git a/replacer_test.go b/replacer_test.go\n--- a/replacer_test.go\n+++ b/replacer_test.go\n@@ -1 +1 @@\n-a\n+b';
      const script = officialEvalScript({
        instance_id: 'caddyserver__caddy-6411',
        repo: 'caddyserver/caddy',
        version: '6411',
        base_commit: base,
        test_patch: patch,
      });
      expect(script).toBe(`#!/bin/bash
set -uxo pipefail
cd /testbed
git config --global --add safe.directory /testbed
cd /testbed
git checkout ${base} replacer_test.go
git apply --verbose --reject - <<'EOF_114329324912'
${patch}
EOF_114329324912
: '>>>>> Start Test Output'
go test -v . -run "TestReplacerNew*"
: '>>>>> End Test Output'
git checkout ${base} replacer_test.go
`);
    });
  });

  describe('when the row is JavaScript with image assets (Chart.js 4.4, only added files)', () => {
    it('echoes instead of resetting and downloads the images before the test patch', () => {
      const patch =
        'diff --git a/test/a.js b/test/a.js\nnew file mode 100644\n--- /dev/null\n+++ b/test/a.js\n@@ -0,0 +1 @@\n+x';
      const script = officialEvalScript({
        instance_id: 'chartjs__Chart.js-1',
        repo: 'chartjs/Chart.js',
        version: '4.4',
        base_commit: base,
        test_patch: patch,
        image_assets: { test_patch: [{ path: 'test/fixtures/a.png', url: 'https://x/a.png' }] },
      });
      expect(script).toBe(`#!/bin/bash
set -uxo pipefail
cd /testbed
git config --global --add safe.directory /testbed
cd /testbed
echo "No test files to reset"
mkdir -p test/fixtures
curl -o test/fixtures/a.png https://x/a.png
chmod 777 test/fixtures/a.png
git apply --verbose --reject - <<'EOF_114329324912'
${patch}
EOF_114329324912
: '>>>>> Start Test Output'
pnpm install
pnpm run build
xvfb-run --server-args="-screen 0 1280x1024x24 -ac :99" su chromeuser -c "./node_modules/.bin/cross-env NODE_ENV=test ./node_modules/.bin/karma start ./karma.conf.cjs --single-run --coverage --grep --auto-watch false"
: '>>>>> End Test Output'
echo "No test files to reset"
`);
    });
  });

  describe('when the row is Rust with a build step (nushell 13246)', () => {
    it('builds after the test patch, before the start marker', () => {
      const patch = 'diff --git a/t.rs b/t.rs\n--- a/t.rs\n+++ b/t.rs\n@@ -1 +1 @@\n-a\n+b';
      const lines = officialEvalScript({
        instance_id: 'nushell__nushell-13246',
        repo: 'nushell/nushell',
        version: '13246',
        base_commit: base,
        test_patch: patch,
      }).split('\n');
      const start = lines.indexOf(": '>>>>> Start Test Output'");
      expect(lines.slice(start - 2, start + 3)).toEqual([
        'EOF_114329324912',
        'cargo build',
        ": '>>>>> Start Test Output'",
        'cargo test -p nu-command --no-fail-fast --test main find::',
        ": '>>>>> End Test Output'",
      ]);
    });
  });

  it('runs under bash: the Django script passes bash -n', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = officialEvalScript({
      instance_id: 'django__django-11099',
      repo: 'django/django',
      version: '3.0',
      base_commit: base,
      test_patch: djangoPatch,
    });
    const result = spawnSync('bash', ['-n'], { input: script, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
