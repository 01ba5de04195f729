/**
 * The verdict of an instance in one sentence, built from its `results.jsonl` line: what a person
 * asks first ("why did it fail?").
 * @module
 */
import type { InstanceResult } from '../../eval/instance/eval-result.js';

const names = (list: readonly string[], max = 3): string =>
  list.slice(0, max).join(', ') + (list.length > max ? ` and ${list.length - max} more` : '');

/**
 * Why the instance got its status.
 * @param result its `results.jsonl` line
 * @param failed the FAIL_TO_PASS and PASS_TO_PASS tests that did not pass, by list
 */
export function verdictReason(
  result: InstanceResult,
  failed: { FAIL_TO_PASS: string[]; PASS_TO_PASS: string[] },
): string {
  const missing = new Set(result.missing_tests);
  switch (result.status) {
    case 'empty_patch':
      return 'The prediction has no patch: nothing was applied or run (SWE-bench counts it as not resolved).';
    case 'error':
      return `${result.infra_error ? 'Infrastructure error' : 'Error'} (${result.error_kind ?? 'unknown'}): ${result.error ?? 'no message recorded'}`;
    case 'resolved':
      return `Resolved: all ${result.f2p.total} FAIL_TO_PASS and ${result.p2p.total} PASS_TO_PASS tests passed${result.patch_method === null ? '' : ` (patch applied with ${result.patch_method})`}.`;
    default: {
      const parts: string[] = [];
      for (const list of ['FAIL_TO_PASS', 'PASS_TO_PASS'] as const) {
        const notPassed = failed[list];
        if (notPassed.length === 0) continue;
        const gone = notPassed.filter((name) => missing.has(name));
        const failing = notPassed.filter((name) => !missing.has(name));
        if (failing.length > 0) parts.push(`${failing.length} ${list} test(s) failed: ${names(failing)}`);
        if (gone.length > 0)
          parts.push(`${gone.length} ${list} test(s) missing from the log: ${names(gone)}`);
      }
      if (result.tests_timed_out) parts.push('the tests hit the time limit');
      return `Unresolved: ${parts.length === 0 ? 'not every listed test passed' : parts.join('; ')}.`;
    }
  }
}
