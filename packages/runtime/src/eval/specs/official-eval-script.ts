/**
 * `officialEvalScript`: the whole evaluation script the published harness writes to `/eval.sh` for
 * an instance, byte for byte (SWE-bench v4.1.0, 726c5461e2ef52d83cf1ea2107870a8bb3328d57:
 * `test_spec/test_spec.py` `eval_script`, `test_spec/python.py` `make_eval_script_list_py`,
 * `test_spec/utils.py` `make_eval_script_list_common`, `test_spec/javascript.py`
 * `make_eval_script_list_js`), built from {@link buildEvalCommand}'s parts. For parity checks and
 * for timing the bare script against the harness; it needs bash (`source`, `set -o pipefail`).
 * @module
 */
import { buildEvalCommand, type EvalCommandInstance } from './build-eval-command.js';

/** What {@link officialEvalScript} reads from a row, besides {@link EvalCommandInstance}. */
export interface OfficialScriptInstance extends EvalCommandInstance {
  readonly base_commit: string;
}

/** The repository directory of the official images. */
export const officialRepoDirectory = '/testbed';
/** The marker lines around the test output (`START_TEST_OUTPUT` / `END_TEST_OUTPUT`). */
export const officialTestOutputMarkers = {
  start: '>>>>> Start Test Output',
  end: '>>>>> End Test Output',
} as const;
const heredoc = 'EOF_114329324912';

/**
 * The script, ending in a newline. Python rows reset the test files with
 * `git checkout <base> <files>` (a trailing space when there are none, as upstream); the other
 * languages echo `No test files to reset` instead.
 * @throws SandkitError as {@link buildEvalCommand} does.
 */
export function officialEvalScript(instance: OfficialScriptInstance): string {
  const parts = buildEvalCommand(instance);
  const python = parts.spec === undefined || parts.spec.language === 'python';
  const dir = officialRepoDirectory;
  const files = parts.testFiles.join(' ');
  const reset =
    python || files !== ''
      ? `git checkout ${instance.base_commit} ${files}`
      : 'echo "No test files to reset"';
  const apply = `${parts.applyTestPatch} <<'${heredoc}'\n${instance.test_patch}\n${heredoc}`;
  const tests = [
    `: '${officialTestOutputMarkers.start}'`,
    // calypso's per-file commands can be none: upstream then leaves nothing between the markers
    ...(parts.testCommand === '' ? [] : [parts.testCommand]),
    `: '${officialTestOutputMarkers.end}'`,
  ];
  const lines = python
    ? [
        ...parts.activate,
        `cd ${dir}`,
        ...(parts.spec?.evalCommands ?? []),
        `git config --global --add safe.directory ${dir}`,
        `cd ${dir}`,
        'git status',
        'git show',
        `git -c core.fileMode=false diff ${instance.base_commit}`,
        ...parts.activate,
        ...(parts.spec?.install === null || parts.spec === undefined ? [] : [parts.spec.install]),
        reset,
        apply,
        ...tests,
        reset,
      ]
    : [
        `cd ${dir}`,
        `git config --global --add safe.directory ${dir}`,
        `cd ${dir}`,
        reset,
        ...parts.afterReset,
        apply,
        ...parts.afterTestPatch,
        ...tests,
        reset,
      ];
  return `${['#!/bin/bash', 'set -uxo pipefail', ...lines].join('\n')}\n`;
}
