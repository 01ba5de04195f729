/**
 * Automattic/wp-calypso's test commands, made per file of the test patch (SWE-bench Multimodal).
 * Semantics of SWE-bench v4.1.0 (726c5461e2ef52d83cf1ea2107870a8bb3328d57)
 * `swebench/harness/test_spec/javascript.py` (`get_test_cmds_calypso`).
 * @module
 */
import { patchFileNames, patchFilePath } from './test-patch-files.js';

/** Versions whose packages have a `test/<pkg>/jest.config.js`. */
const jestConfigJs = new Set(['10.10.0', '10.12.0', '10.13.0', '10.14.0', '10.15.2', '10.16.3']);
/** Versions whose packages have a `test/<pkg>/jest.config.json`. */
const jestConfigJson = new Set([
  '6.11.5',
  '8.9.1',
  '8.9.3',
  '8.9.4',
  '8.11.0',
  '8.11.2',
  '10.4.1',
  '10.5.0',
  '10.6.0',
  '10.9.0',
]);

/**
 * One or more command lines per test file: a Jest snapshot stands for the directory above its
 * `__snapshots__`; files under `client…`/`packages…` run with that package's jest config (or
 * `npm run test-<pkg>`), files under `test/e2e` with the e2e runner; others run nothing.
 */
export function calypsoTestCommands(version: string, testPatch: string): string[] {
  const commands: string[] = [];
  for (const file of patchFileNames(testPatch)) {
    let path = patchFilePath(file);
    if (/__snapshots__\/(.*).js.snap$/.test(path)) path = path.split('/').slice(0, -2).join('/');
    if (path.startsWith('client') || path.startsWith('packages')) {
      const pkg = path.split('/')[0]!;
      const quoted = singleQuoted(path);
      if (jestConfigJs.has(version)) {
        commands.push(`./node_modules/.bin/jest --verbose -c=test/${pkg}/jest.config.js ${quoted}`);
      } else if (jestConfigJson.has(version)) {
        commands.push(`./node_modules/.bin/jest --verbose -c=test/${pkg}/jest.config.json ${quoted}`);
      } else {
        commands.push(`npm run test-${pkg} --verbose ${quoted}`);
      }
    } else if (path.startsWith('test/e2e')) {
      // Upstream leaves this path unquoted.
      commands.push('cd test/e2e', `NODE_CONFIG_ENV=test npm run test ${path}`, 'cd ../..');
    }
  }
  return commands;
}

/** `'path'` as upstream writes it; a `'` inside is escaped (upstream would break there). */
function singleQuoted(path: string): string {
  return `'${path.replaceAll("'", `'\\''`)}'`;
}
