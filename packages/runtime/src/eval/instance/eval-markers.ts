/**
 * The lines the evaluation script prints around and before the test command's output, which
 * grading looks for (kept apart from `eval-script.ts`, which builds the script, so that grading
 * loads none of the script's code).
 * @module
 */

/** The official markers around the test command's output (`START_TEST_OUTPUT`, `END_TEST_OUTPUT`). */
export const startTestOutput = '>>>>> Start Test Output';
/** See {@link startTestOutput}. */
export const endTestOutput = '>>>>> End Test Output';
/** Printed by the test step when the test patch does not apply. */
export const testPatchFailedMarker = '::sandkit-test-patch-failed';
/** Ends a kept head of test output that sandkit cut and did not grade; the rest of its line is the reason. */
export const outputCutMarker = '::sandkit-output-cut ';
