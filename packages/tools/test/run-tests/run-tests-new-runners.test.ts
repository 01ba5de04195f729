import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRunTestsTool } from '../../src/run-tests/run-tests.js';

// Issue 9 item 5: run_tests reaches the new parsers, with real runners (Debian phpunit, ruby-rspec,
// ruby-minitest) and with `framework` naming one explicitly.
let sandbox: SandboxHandle;

async function put(path: string, content: string): Promise<void> {
  await mkdir(join(sandbox.workdir, path, '..'), { recursive: true });
  await writeFile(join(sandbox.workdir, path), content);
}

beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
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
  await put(
    'rb/test/test_calc.rb',
    [
      "require 'minitest/autorun'",
      'class TestCalc < Minitest::Test',
      '  def test_adds; assert_equal 2, 1 + 1; end',
      "  def test_raises; raise 'boom'; end",
      'end',
      '',
    ].join('\n'),
  );
  await put(
    'rb/spec/calc_spec.rb',
    [
      "RSpec.describe 'calc' do",
      "  it('adds') { expect(1 + 1).to eq(2) }",
      "  it('breaks') { expect(1).to eq(2) }",
      'end',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await sandbox.destroy();
});

describe('run_tests with the new runners', () => {
  it('detects phpunit --testdox output and names tests Class > test', async () => {
    const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
    const result = await runTests.call({ cwd: 'php', command: 'phpunit --testdox --colors=never tests' });
    expect(result.framework).toBe('phpunit');
    expect(result).toMatchObject({ passed: 1, failed: 1, skipped: 0, total: 2 });
    expect(result.tests).toContainEqual({ name: 'Calc > Subtracts badly', status: 'failed' });
    expect(result.failures).toContainEqual({
      name: 'Calc > Subtracts badly',
      message: 'Failed asserting that 1 is identical to 3.',
    });
  });

  it('detects minitest -v output: an exception is an error with its message', async () => {
    const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
    const result = await runTests.call({ cwd: 'rb', command: 'ruby -Itest test/test_calc.rb -v' });
    expect(result.framework).toBe('minitest');
    expect(result).toMatchObject({ passed: 1, failed: 1, skipped: 0, total: 2 });
    expect(result.tests).toContainEqual({ name: 'TestCalc#test_raises', status: 'error' });
    expect(result.failures).toContainEqual({ name: 'TestCalc#test_raises', message: 'RuntimeError: boom' });
  });

  it('parses rspec -f d output as the rspec framework when asked', async () => {
    const runTests = createRunTestsTool(sandbox.client, { root: sandbox.workdir });
    const result = await runTests.call({
      cwd: 'rb',
      command: 'rspec --no-color -f d spec/calc_spec.rb',
      framework: 'rspec',
    });
    expect(result.framework).toBe('rspec');
    expect(result).toMatchObject({ passed: 1, failed: 1, skipped: 0, total: 2 });
    expect(result.tests).toEqual(
      expect.arrayContaining([
        { name: 'calc adds', status: 'passed' },
        { name: 'calc breaks', status: 'failed' },
      ]),
    );
  });
});
