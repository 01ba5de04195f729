import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunTestsTool } from '../../src/run-tests/run-tests.js';

let sandbox: SandboxHandle;

async function put(path: string, content: string): Promise<void> {
  await mkdir(join(sandbox.workdir, path, '..'), { recursive: true });
  await writeFile(join(sandbox.workdir, path), content);
}

beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  await put(
    'py/tests/test_calc.py',
    [
      'import pytest',
      'def test_ok():',
      '    assert 1 + 1 == 2',
      '@pytest.mark.parametrize("text", ["a b", "x [1] - y"])',
      'def test_param(text):',
      '    assert text != "x [1] - y", "bracket case"',
      '',
    ].join('\n'),
  );
  await put(
    'js/package.json',
    JSON.stringify({ name: 'js', private: true, scripts: { test: 'node --test' } }),
  );
  await put(
    'js/math.test.js',
    [
      "const { test } = require('node:test');",
      "const assert = require('node:assert');",
      "test('adds', () => assert.strictEqual(1 + 1, 2));",
      "test('subtracts - badly', () => assert.strictEqual(2 - 1, 3));",
      '',
    ].join('\n'),
  );
  await put('empty/readme.txt', 'no tests here\n');
  await put(
    'crash/test_crash.py',
    [
      'import os',
      'def test_before():',
      '    assert True',
      'def test_dies():',
      '    os.abort()',
      'def test_after():',
      '    assert True',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await sandbox.destroy();
});

describe('createRunTestsTool', () => {
  describe('when the command is detected', () => {
    it('runs pytest on a tests/ directory and reports one failed parametrised test with its whole id', async () => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      const result = await runTests.call({ cwd: 'py' });
      expect(result.command).toContain('python3 -m pytest -rA');
      expect(result.framework).toBe('pytest');
      expect(result.exitCode).toBe(1);
      expect(result).toMatchObject({ passed: 2, failed: 1, skipped: 0, total: 3 });
      expect(result.unparsed).toBeUndefined();
      expect(result.tests).toContainEqual({
        name: 'tests/test_calc.py::test_param[x [1] - y]',
        status: 'failed',
      });
      expect(result.tests).toContainEqual({ name: 'tests/test_calc.py::test_param[a b]', status: 'passed' });
      expect(result.failures?.[0]?.name).toBe('tests/test_calc.py::test_param[x [1] - y]');
      expect(result.failures?.[0]?.message).toContain('bracket case');
      expect(result.output).toMatch(/1 failed, 2 passed/);
    });

    it('reads `pytest -q` (progress dots, a summary without its border): counts, the failure, detected', async () => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      const result = await runTests.call({ command: 'python3 -m pytest -q -p no:cacheprovider', cwd: 'py' });
      expect(result.framework).toBe('pytest');
      expect(result.exitCode).toBe(1);
      expect(result).toMatchObject({ passed: 2, failed: 1, skipped: 0, total: 3 });
      expect(result.unparsed).toBeUndefined();
      expect(result.failures?.[0]?.name).toBe('tests/test_calc.py::test_param[x [1] - y]');
    });

    it('runs the package.json test script (node --test) and reports failed 1 with a non-zero exit', async () => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      const result = await runTests.call({ cwd: 'js' });
      expect(result.command).toBe('npm test');
      expect(result.framework).toBe('node');
      expect(result.exitCode).not.toBe(0);
      expect(result).toMatchObject({ passed: 1, failed: 1, total: 2 });
      expect(result.tests).toContainEqual({ name: 'subtracts - badly', status: 'failed' });
    });

    it('throws not_found when the directory has no test setup', async () => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      await expect(runTests.call({ cwd: 'empty' })).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('when cwd is not a directory of the workspace', () => {
    it('is a tool error (ToolError not_found naming cwd), with and without a command, not a sandbox failure', async () => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      for (const input of [
        { command: 'true', cwd: 'no/such/dir' },
        { cwd: 'no/such/dir' },
        { cwd: 'empty/readme.txt' },
      ])
        await expect(runTests.call(input), JSON.stringify(input)).rejects.toMatchObject({
          name: 'ToolError',
          code: 'not_found',
          message: expect.stringContaining(`cwd "${input.cwd}" is not an existing directory`),
        });
    });
  });

  describe('when the runner retries a test', () => {
    it('lists it once with its last status and its tries (real vitest, retry: 2)', async () => {
      await put('vr/package.json', JSON.stringify({ name: 'vr', private: true, type: 'module' }));
      await put('vr/vitest.config.mjs', 'export default {}\n');
      await put(
        'vr/flaky.test.js',
        [
          "import { test, expect } from 'vitest';",
          "import { existsSync, writeFileSync } from 'node:fs';",
          "test('fine', () => { expect(1).toBe(1); });",
          "test('flaky', { retry: 2 }, () => { if (!existsSync('.mark')) { writeFileSync('.mark', ''); expect(1).toBe(2); } });",
          "test('always', { retry: 2 }, () => { expect(1).toBe(2); });",
          '',
        ].join('\n'),
      );
      const vitest = join(import.meta.dirname, '../../node_modules/.bin/vitest');
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      const result = await runTests.call({ command: `${vitest} run --root . --reporter=verbose`, cwd: 'vr' });
      expect(result).toMatchObject({ framework: 'vitest', passed: 2, failed: 1, total: 3 });
      expect(result.tests).toEqual([
        { name: 'flaky.test.js > always', status: 'failed', tries: 3 },
        { name: 'flaky.test.js > fine', status: 'passed' },
        { name: 'flaky.test.js > flaky', status: 'passed', tries: 2 },
      ]);
    }, 60_000);
  });

  describe('when the run fails outside the tests', () => {
    it('flags a non-zero exit with no parsed failure as unparsed and never as passed', async () => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      const result = await runTests.call({ command: 'python3 -m pytest -rA --no-such-option', cwd: 'py' });
      expect(result.exitCode).not.toBe(0);
      expect(result.unparsed).toBe(true);
      expect(result.failed ?? 0).toBe(0);
      expect(result.passed ?? 0).toBe(0);
    });

    it('names a test path that is not there as the failure (pytest: "no tests ran", exit 4)', async () => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      const result = await runTests.call({ command: 'python3 -m pytest -rA no_such_dir', cwd: 'py' });
      expect(result.exitCode).toBe(4);
      expect(result.unparsed).toBeUndefined();
      expect(result.failures).toEqual([
        { name: 'no_such_dir', message: 'file or directory not found: no_such_dir' },
      ]);
      expect(result.tests).toEqual([{ name: 'no_such_dir', status: 'error' }]);
      expect(result.passed ?? 0).toBe(0);
    });

    it('returns timedOut with a null exit code, flagged unparsed, when the run outlives timeoutMs', async () => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      const result = await runTests.call({
        command: 'echo collecting; sleep 30',
        timeoutMs: 1000,
        framework: 'pytest',
      });
      expect(result).toMatchObject({ timedOut: true, exitCode: null, unparsed: true });
      expect(result.output).toContain('collecting');
    });
  });

  describe('D13: a run ended by a signal', () => {
    it.each([
      ['echo partial; kill -SEGV $$', 'SIGSEGV'],
      ['echo partial; kill -9 $$', 'SIGKILL'],
    ])('D13: names the signal when the command itself is killed (%s)', async (command, signal) => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      const result = await runTests.call({ command, framework: 'pytest' });
      expect(result).toMatchObject({ exitCode: null, timedOut: false, signal, unparsed: true });
      expect(result.output).toContain('partial');
    });

    it('D13: names the signal of a runner killed inside the shell (exit status 128 + N), and none for a plain exit or a timeout', async () => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      const result = await runTests.call({
        command: "echo partial; sh -c 'kill -SEGV $$'",
        framework: 'pytest',
      });
      expect(result).toMatchObject({ exitCode: 139, signal: 'SIGSEGV', unparsed: true });
      expect((await runTests.call({ command: 'exit 3', framework: 'pytest' })).signal).toBeUndefined();
      expect(
        (await runTests.call({ command: 'sleep 30', timeoutMs: 500, framework: 'pytest' })).signal,
      ).toBeUndefined();
    });

    it('names the test a crashed pytest-xdist worker was running, and does not flag the run unparsed', async () => {
      const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
      const result = await runTests.call({
        command: '/usr/bin/python3 -m pytest -p no:cacheprovider -n 2 test_crash.py',
        cwd: 'crash',
      });
      expect(result.framework).toBe('pytest');
      expect(result).toMatchObject({ passed: 2, failed: 1, total: 3 });
      expect(result.unparsed).toBeUndefined();
      expect(result.failures).toEqual([
        {
          name: 'test_crash.py::test_dies',
          message: expect.stringMatching(/^worker 'gw\d' crashed while running 'test_crash.py::test_dies'$/),
        },
      ]);
    });
  });
});
