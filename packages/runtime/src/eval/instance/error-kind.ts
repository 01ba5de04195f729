/**
 * The kinds of error an evaluated instance can end with, in a file of their own so that the log
 * grader (`grade/grade-log.ts`) names them without importing the result record, which imports the
 * grader's agreement types back.
 * @module
 */

/**
 * Why an instance errored. `patch_apply` is the model's doing and `dataset` the dataset's (both
 * count in the resolved rate); every other kind is an infrastructure problem, kept out of the
 * resolved rate and rerun by `--resume`.
 */
export type ErrorKind =
  | 'patch_apply'
  | 'test_patch'
  | 'invalid_record'
  /** `--skip-invalid`: the dataset row, or its prediction, could not be used; the dataset's doing, counted in the total. */
  | 'dataset'
  | 'repo'
  | 'setup'
  | 'sandbox'
  | 'timeout'
  | 'internal'
  /** `sandkit grade`: the log has no `>>>>> Start Test Output` (or End) marker: the tests never ran, or the log was cut. */
  | 'incomplete_log';
