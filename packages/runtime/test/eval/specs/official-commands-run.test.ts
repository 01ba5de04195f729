/**
 * Built commands run by real programs: the jq steps of the Multilingual commands turn a runner's
 * JSON report into the lines the official parsers read, and a Python and a Go command run real
 * pytest and `go test` with their directives and filters.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildEvalCommand } from '../../../src/eval/specs/build-eval-command.js';
import { testPatchTouching } from './spec-test-helpers.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sandkit-specs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function sh(command: string, input = ''): { status: number | null; stdout: string } {
  const result = spawnSync('sh', ['-c', command], {
    cwd: dir,
    input,
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C', NO_COLOR: '1', GOFLAGS: '-mod=mod', GOTOOLCHAIN: 'local' },
    timeout: 120_000,
  });
  return { status: result.status, stdout: result.stdout };
}

/** The part of a built command after its runner: `runner … | <transform>` → `<transform>`. */
function transformOf(repo: string, version: string): string {
  const built = buildEvalCommand({ instance_id: `x-${version}`, repo, version, test_patch: '' });
  return built.testCommand.slice(built.testCommand.indexOf(' | ') + 3);
}

describe('the jq steps of the built commands', () => {
  it('turn jest --json into [STATUS] ancestors > title lines (immutable-js 2005)', () => {
    const report = {
      testResults: [
        {
          assertionResults: [
            { ancestorTitles: ['OrderedMap', 'set'], title: 'keeps order', status: 'passed' },
            { ancestorTitles: [], title: 'top level', status: 'failed' },
          ],
        },
      ],
    };
    const out = sh(transformOf('immutable-js/immutable-js', '2005'), JSON.stringify(report));
    expect(out.stdout).toBe('[PASSED] OrderedMap > set > keeps order\n[FAILED] top level\n');
  });

  const rspec = JSON.stringify({
    examples: [
      { id: './spec/a_spec.rb[1:1]', description: 'adds', status: 'passed' },
      { id: './spec/a_spec.rb[1:2]', description: 'adds', status: 'failed' },
      { id: './spec/a_spec.rb[1:3]', description: 'removes', status: 'pending' },
    ],
  });

  it('turn rspec JSON after one banner line into description - id - status (fastlane)', () => {
    const out = sh(transformOf('fastlane/fastlane', '21857'), `banner line\n${rspec}\n`);
    expect(out.stdout).toBe(
      'adds - ./spec/a_spec.rb[1:1] - passed\nadds - ./spec/a_spec.rb[1:2] - failed\nremoves - ./spec/a_spec.rb[1:3] - pending\n',
    );
  });

  it('skip what precedes the JSON and print description - status (fpm)', () => {
    const out = sh(transformOf('jordansissel/fpm', '1829'), `warning: x\nmore\n${rspec}\n`);
    expect(out.stdout).toBe('adds - passed\nadds - failed\nremoves - pending\n');
  });

  it('group repeated descriptions, failed when any run failed (rubocop, a command over several lines)', () => {
    const out = sh(transformOf('rubocop/rubocop', '13705'), `noise\n${rspec}\n`);
    expect(out.stdout).toBe('adds - failed\nremoves - pending\n');
  });
});

describe('a built Python command', () => {
  it('runs pytest on the test files of the patch and prints the -rA summary', async () => {
    await mkdir(join(dir, 'tests'));
    await writeFile(
      join(dir, 'tests/test_a.py'),
      'def test_ok():\n    pass\n\ndef test_bad():\n    assert False\n',
    );
    const built = buildEvalCommand({
      instance_id: 'pytest-dev__pytest-1',
      repo: 'pytest-dev/pytest',
      version: '8.0',
      test_patch: testPatchTouching(['tests/test_a.py', 'tests/data.json']),
    });
    expect(built.testCommand).toBe('pytest -rA tests/test_a.py');
    const out = sh(`${built.testCommand} -p no:cacheprovider`);
    expect(out.status).toBe(1);
    expect(out.stdout).toMatch(/^PASSED tests\/test_a\.py::test_ok$/m);
    expect(out.stdout).toMatch(/^FAILED tests\/test_a\.py::test_bad - assert False$/m);
  });
});

describe('a built Go command', () => {
  it('runs only the tests its -run filter names (gin 4003)', async () => {
    await writeFile(join(dir, 'go.mod'), 'module example.com/gin\n\ngo 1.19\n');
    await writeFile(
      join(dir, 'routes_test.go'),
      'package gin\n\nimport "testing"\n\nfunc TestMethodNotAllowedNoRoute(t *testing.T) {}\n\nfunc TestOther(t *testing.T) {}\n',
    );
    const built = buildEvalCommand({
      instance_id: 'gin-gonic__gin-4003',
      repo: 'gin-gonic/gin',
      test_patch: testPatchTouching(['routes_test.go']),
    });
    const out = sh(`GOCACHE=${join(dir, '.cache')} ${built.testCommand}`);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('--- PASS: TestMethodNotAllowedNoRoute');
    expect(out.stdout).not.toContain('TestOther');
  }, 120_000);
});
