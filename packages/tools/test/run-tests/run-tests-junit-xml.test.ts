import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunTestsTool } from '../../src/run-tests/run-tests.js';

// Issue 26 section 4: run_tests reads the JUnit XML a real runner prints (node 20) or writes to a
// file that the command prints after its console output (Debian phpunit).
let sandbox: SandboxHandle;

async function put(path: string, content: string): Promise<void> {
  await mkdir(join(sandbox.workdir, path, '..'), { recursive: true });
  await writeFile(join(sandbox.workdir, path), content);
}

beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
  await put(
    'js/calc.test.js',
    [
      "const { describe, it } = require('node:test');",
      "const assert = require('node:assert');",
      "describe('calc', () => {",
      "  it('adds', () => assert.strictEqual(1 + 1, 2));",
      "  it('breaks <&>', () => assert.strictEqual(1, 2));",
      '});',
      '',
    ].join('\n'),
  );
  await put(
    'php/tests/CalcTest.php',
    [
      '<?php',
      'use PHPUnit\\Framework\\TestCase;',
      'final class CalcTest extends TestCase {',
      '    public function testAdds(): void { $this->assertSame(2, 1 + 1); }',
      '    public function testSubtractsBadly(): void { $this->assertSame(3, 2 - 1); }',
      '}',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await sandbox.destroy();
});

describe('run_tests with JUnit XML output', () => {
  it('detects node --test-reporter=junit and names tests by their suites', async () => {
    const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
    const result = await runTests.call({
      cwd: 'js',
      command: 'node --test --test-reporter=junit calc.test.js',
    });
    expect(result.framework).toBe('junit-xml');
    expect(result.exitCode).toBe(1);
    expect(result).toMatchObject({ passed: 1, failed: 1, skipped: 0, total: 2 });
    expect(result.tests).toHaveLength(2);
    expect(result.tests).toContainEqual({ name: 'calc > adds', status: 'passed' });
    expect(result.tests).toContainEqual({ name: 'calc > breaks <&>', status: 'failed' });
  });

  it('reads phpunit --log-junit printed after the console output, with PHPUnit’s Class::method ids', async () => {
    const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
    const result = await runTests.call({
      cwd: 'php',
      command: 'phpunit --colors=never --log-junit report.xml tests; status=$?; cat report.xml; exit $status',
    });
    expect(result.framework).toBe('junit-xml');
    expect(result.exitCode).toBe(1);
    expect(result).toMatchObject({ passed: 1, failed: 1, skipped: 0, total: 2 });
    expect(result.tests).toContainEqual({ name: 'CalcTest::testSubtractsBadly', status: 'failed' });
    expect(result.failures).toContainEqual({
      name: 'CalcTest::testSubtractsBadly',
      message: 'CalcTest::testSubtractsBadly',
    });
  });
});
