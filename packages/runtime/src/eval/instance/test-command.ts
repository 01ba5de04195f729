/**
 * The default test command per framework for repositories outside the spec table, restricted to
 * the test files the instance's test patch touches (as SWE-bench does with its "test
 * directives"). No environment is added (a repository's configuration may read `CI` and the
 * like); runners are asked not to colour their output by flags, and the harness strips ANSI
 * escapes anyway (B04).
 * @module
 */
import { formatCommand, SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { TestFramework } from '../load/swe-bench-instance.js';

/**
 * Builds the shell command that runs `files` (repository-relative paths) with `framework`.
 * With no files, the whole suite runs.
 * @throws SandkitError `invalid_record` for a framework whose producer differs per repository (TAP,
 *   karma, minitest, Catch2, …): such a row needs its own `test_cmd`.
 */
export function defaultTestCommand(framework: TestFramework, files: readonly string[]): string {
  const argv = (base: string[], targets: readonly string[]): string =>
    formatCommand(targets.length === 0 ? base : [...base, '--', ...targets]);
  const pyFiles = files.filter((file) => file.endsWith('.py'));
  switch (framework) {
    case 'pytest':
      return argv(
        ['python3', '-m', 'pytest', '--no-header', '-rA', '--tb=no', '--color=no', '-p', 'no:cacheprovider'],
        pyFiles,
      );
    case 'unittest':
      return formatCommand(['python3', '-m', 'unittest', '-v', ...pyFiles.map(pythonModule)]);
    case 'django':
      return formatCommand([
        './tests/runtests.py',
        '--verbosity',
        '2',
        '--settings=test_sqlite',
        '--parallel',
        '1',
        ...pyFiles.map((file) => pythonModule(file.replace(/^tests\//, ''))),
      ]);
    case 'sympy':
      return formatCommand(['bin/test', '-C', '--verbose', ...pyFiles]);
    case 'jest':
      return argv(['npx', '--no-install', 'jest', '--ci', '--verbose', '--colors=false'], files);
    case 'vitest':
      return argv(['npx', '--no-install', 'vitest', 'run', '--reporter=verbose', '--color=false'], files);
    case 'mocha':
      return argv(['npx', '--no-install', 'mocha', '--reporter', 'spec', '--no-color'], files);
    case 'node':
      return formatCommand(['node', '--test', ...files]);
    case 'go':
      return formatCommand(['go', 'test', '-v', ...goPackages(files)]);
    case 'cargo':
      return formatCommand(['cargo', 'test', '--no-fail-fast', '--color', 'never', ...cargoTargets(files)]);
    case 'jest-json':
      return argv(['npx', '--no-install', 'jest', '--ci', '--json'], files);
    case 'phpunit':
      return formatCommand([
        'vendor/bin/phpunit',
        '--testdox',
        ...files.filter((file) => file.endsWith('.php')),
      ]);
    case 'rspec':
      return argv(
        ['bundle', 'exec', 'rspec', '--format', 'documentation', '--no-color'],
        files.filter((file) => file.endsWith('_spec.rb')),
      );
    case 'maven':
      return formatCommand(['mvn', '-B', 'test']);
    case 'gradle':
      return formatCommand(['./gradlew', 'test', '--console=plain', '--continue']);
    case 'ctest':
      return formatCommand(['ctest', '--output-on-failure', '-V']);
    default:
      // The rest (tap, karma, jasmine, ant-junit, minitest, test-unit, cucumber, catch2, doctest-xml,
      // redis-tcl, automake, micropython) name an output format whose producer differs per repository.
      throw new SandkitError({
        code: SandkitErrorCode.invalidRecord,
        message: `test_framework "${framework}" has no default test command outside the SWE-bench spec table: give the row a test_cmd that prints ${framework} output`,
      });
  }
}

/** `tests/test_book.py` → `tests.test_book`. */
function pythonModule(file: string): string {
  return file.replace(/\.py$/, '').replaceAll('/', '.');
}

/** Go packages of the test files (`./pkg/x`), or every package. */
function goPackages(files: readonly string[]): string[] {
  const dirs = [
    ...new Set(files.filter((f) => f.endsWith('_test.go')).map((f) => f.replace(/\/?[^/]*$/, ''))),
  ];
  return dirs.length === 0 ? ['./...'] : dirs.map((dir) => (dir === '' ? '.' : `./${dir}`));
}

/** `--test name` per integration-test file under `tests/`; unit tests in `src/` need the whole crate. */
function cargoTargets(files: readonly string[]): string[] {
  const rs = files.filter((file) => file.endsWith('.rs'));
  const integration = rs.filter((file) => /^tests\/[^/]+\.rs$/.test(file));
  if (integration.length === 0 || integration.length !== rs.length) return [];
  return integration.flatMap((file) => ['--test', file.slice(6, -3)]);
}
