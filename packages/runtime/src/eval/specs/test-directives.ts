/**
 * The test directives: how the files of an instance's test patch become arguments of the test
 * command. Semantics of SWE-bench v4.1.0 (726c5461e2ef52d83cf1ea2107870a8bb3328d57)
 * `swebench/harness/test_spec/python.py` (`get_test_directives`) and `constants/__init__.py`
 * (`NON_TEST_EXTS`).
 * @module
 */
import type { DirectiveRule } from './repo-spec.js';
import { diffHeaderPaths } from './test-patch-files.js';

export { testPatchFiles } from './test-patch-files.js';

/**
 * Endings of files that are never test targets. `csv` has no dot upstream: every name ending in
 * `csv` is dropped.
 */
export const nonTestEndings: readonly string[] = [
  '.json',
  '.png',
  'csv',
  '.txt',
  '.md',
  '.jpg',
  '.jpeg',
  '.pkl',
  '.yml',
  '.yaml',
  '.toml',
];

/**
 * The directives `rule` makes of `testPatch`, in patch order (duplicates kept, as upstream).
 * `calypso` and `none` give none: those commands are complete as written.
 */
export function testDirectives(rule: DirectiveRule, testPatch: string): string[] {
  if (rule === 'humaneval') return ['test.py'];
  if (rule === 'calypso' || rule === 'none') return [];
  const paths = diffHeaderPaths(testPatch).filter(
    (path) => !nonTestEndings.some((ending) => path.endsWith(ending)),
  );
  return rule === 'django-modules' ? paths.map(djangoModule) : paths;
}

/** `tests/admin_views/tests.py` → `admin_views.tests` (only a leading `tests/` goes). */
function djangoModule(path: string): string {
  const noExtension = path.endsWith('.py') ? path.slice(0, -3) : path;
  const noTests = noExtension.startsWith('tests/') ? noExtension.slice(6) : noExtension;
  return noTests.replaceAll('/', '.');
}
