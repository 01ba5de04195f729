/**
 * What the test step of one instance runs and how its log is read: from the spec table
 * (`../specs/`) when it knows the repository and version, with the row's `test_cmd` /
 * `test_framework` overriding it; for repositories outside the table (the project's own small
 * datasets; a known repository at an unknown version is an error instead), sandkit's default command for the row's framework restricted to the test patch's files.
 * @module
 */

import { frameworkOf, type SweBenchInstance } from '../load/swe-bench-instance.js';
import { buildEvalCommand } from '../specs/build-eval-command.js';
import { specForInstance } from '../specs/spec-for.js';
import { specTable } from '../specs/spec-table.js';
import { testPatchFiles } from '../specs/test-directives.js';
import type { TestStepParts } from './eval-script.js';
import { patchPaths, splitPatch } from './patch-files.js';
import { defaultTestCommand } from './test-command.js';

/** The test step and the grading rules of one instance. */
export interface TestPlan {
  test: TestStepParts;
  /** Our parser (a `parseTestOutput` framework name). */
  parser: string;
  /** The official parser function the ids must match (`parse_log_pytest_options`, …); `null` outside the table. */
  officialParser: string | null;
  /** SWE-bench's FAIL_ONLY grading (only a FAILED status fails a listed test). */
  failOnly: boolean;
  /** Where the command came from: the spec table, the row's `test_cmd`, or sandkit's default for the framework. */
  source: 'spec' | 'row' | 'default';
}

/**
 * The plan for `instance`.
 * @throws SandkitError from the spec table when the repository is known but its version is not,
 *   and the row has no `test_cmd` (the message lists the known versions).
 */
export function testPlan(instance: SweBenchInstance): TestPlan {
  if (
    specForInstance(instance) === undefined &&
    instance.test_cmd === undefined &&
    !specTable().byRepo.has(instance.repo.toLowerCase())
  ) {
    const framework = frameworkOf(instance);
    const files = patchPaths(splitPatch(instance.test_patch).files);
    return {
      test: {
        activate: [],
        beforeTestPatch: [],
        afterReset: [],
        applyTestPatch: 'git apply -v -',
        afterTestPatch: [],
        testCommand: defaultTestCommand(framework, files),
        resetFiles: testPatchFiles(instance.test_patch),
      },
      parser: framework,
      officialParser: null,
      failOnly: false,
      source: 'default',
    };
  }
  const command = buildEvalCommand(instance);
  return {
    test: {
      activate: command.activate,
      beforeTestPatch: command.beforeTestPatch,
      afterReset: command.afterReset,
      applyTestPatch: command.applyTestPatch,
      afterTestPatch: command.afterTestPatch,
      testCommand: command.testCommand,
      resetFiles: command.testFiles,
    },
    parser: command.parser,
    officialParser: command.officialParser,
    failOnly: command.failOnly,
    source: command.source,
  };
}
