/**
 * The words an instance is found by in the report's filter box besides its id, repository and
 * statuses (see `ViewInstance.tags`), from its tests, error kind and official agreement.
 * @module
 */
import type { ViewInstance } from '../model/view-data.js';

/** Whether a list has a test that did not pass (by its tests, else by its counts). */
function notAllPassed(instance: Omit<ViewInstance, 'tags'>, list: 'FAIL_TO_PASS' | 'PASS_TO_PASS'): boolean {
  const counts = list === 'FAIL_TO_PASS' ? instance.f2p : instance.p2p;
  return (
    instance.tests.some((t) => t.list === list && t.status !== 'passed') ||
    (counts !== null && counts.success < counts.total)
  );
}

/** The tags of a graded or agent-run instance. */
export function instanceTags(instance: Omit<ViewInstance, 'tags'>): string[] {
  const graded = instance.status === 'resolved' || instance.status === 'unresolved';
  const tags: Array<string | false> = [
    graded && notAllPassed(instance, 'FAIL_TO_PASS') && 'FAIL_TO_PASS failed',
    graded && notAllPassed(instance, 'PASS_TO_PASS') && 'PASS_TO_PASS failed',
    instance.errorKind === 'patch_apply' && 'patch did not apply',
    instance.infraError && 'infrastructure error',
    instance.tests.some((t) => t.status === 'missing') && 'missing tests',
    instance.official !== null && (instance.official.agrees ? 'official agrees' : 'official differs'),
  ];
  return tags.filter((tag): tag is string => tag !== false);
}
