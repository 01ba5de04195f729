/**
 * The evaluation script of one instance, run as ONE command in the sandbox (plus one `writeFile`
 * to put it there): the preparation steps (the tree in place or checked out, `setup_cmd`, the
 * model patch), then the test step as the official harness runs it — `make_eval_script_list_py` and
 * `make_eval_script_list_common` in `swebench/harness/test_spec/{python,utils}.py` (SWE-bench v4.1.0,
 * commit 726c5461e2ef52d83cf1ea2107870a8bb3328d57):
 *
 * 1. activate the environment (`source /opt/miniconda3/bin/activate`, `conda activate testbed`), `cd`
 *    into the repository, the spec's `eval_commands` and `install`;
 * 2. reset the test files the test patch modifies to `base_commit` (`git checkout <base> <files>`);
 * 3. apply the test patch (`git apply -v -`, other languages `git apply --verbose --reject -`); sandkit stops here when it fails (the official script
 *    runs on and may grade a run without the new tests: sandkit never resolves it);
 * 4. the spec's build commands, then the test command between `>>>>> Start Test Output` and
 *    `>>>>> End Test Output`;
 * 5. reset the test files again.
 *
 * The test step runs with the spec's environment only: the variables sandkit's adapters add to
 * every command (`NO_COLOR`, `TERM`, `LC_ALL`, …) are unset first, and colour is stripped from the
 * log instead. Patches travel inside the script as quoted here-documents (as the official script
 * carries the test patch), so no separate upload is needed. Every git command of the harness's own
 * (the reset, the test patch's `git apply`, the spec's `git …` commands) runs with the pinned
 * config of `@sandkit/core`, `core.hooksPath=/dev/null` included: no hook of the checkout runs (R11).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { formatCommand, pinnedGitCommand, pinnedGitConfig, quoteShellArgument } from '@sandkit/core';
import { endTestOutput, startTestOutput, testPatchFailedMarker } from './eval-markers.js';
import { type PatchPolicy, patchStepCommand } from './patch-step.js';
import { buildPrepareScript, type PrepareStep } from './prepare-script.js';

/** Printed by the in-place step when the image has no repository at the expected path. */
export const noTreeMarker = '::sandkit-no-tree';

/** Variables the adapters put into every command's environment; the test step unsets them. */
export const injectedEnvironment = [
  'NO_COLOR',
  'TERM',
  'GIT_TERMINAL_PROMPT',
  'PAGER',
  'GIT_PAGER',
  'LC_ALL',
] as const;

/** The test step's parts (from the spec table, or the row's overrides). */
export interface TestStepParts {
  /** Environment activation lines, run first. */
  activate: readonly string[];
  /** Lines run after activation and before the test files are reset (`eval_commands`, `install`). */
  beforeTestPatch: readonly string[];
  /** Lines run after the reset, before the test patch (Multimodal image downloads). */
  afterReset: readonly string[];
  /** The command applying the test patch read from stdin (`git apply -v -`; other languages add `--reject`). */
  applyTestPatch: string;
  /** Lines run after the test patch and before the tests (`build`). */
  afterTestPatch: readonly string[];
  /** The test command (one or more lines) run between the markers. */
  testCommand: string;
  /** Repository-relative paths the test patch modifies (the files reset to `base_commit`). */
  resetFiles: readonly string[];
}

/** What the script needs besides the test step. */
export interface EvalScriptInput {
  /** Sandbox path of the repository. */
  repoDir: string;
  /** Sandbox directory for the harness's own files. */
  scratchDir: string;
  baseCommit: string;
  /** The commit the test files are reset to: `baseCommit`, or `HEAD` in a one-commit archive checkout (which has no such object). */
  resetRef: string;
  /** The tree step: in place (see {@link inPlaceStep}) or a checkout. */
  treeStep: PrepareStep;
  /** The row's `setup_cmd`, run in the tree before the model patch. */
  setupCommand: string | null;
  /** The model patch text (ends with a newline), `null` when there is nothing to apply. */
  modelPatch: string | null;
  patchPolicy: PatchPolicy;
  testPatch: string;
  test: TestStepParts;
}

/**
 * The step checking that the image holds the repository at `repoDir` at `baseCommit`: prints
 * {@link noTreeMarker} and exits 3 when there is no repository there (without touching the git
 * config), adds `repoDir` to the global `safe.directory` list only when it is not there yet, exits 4 when HEAD is another
 * commit, exits 5 when the sandbox's user cannot write it (or its `.git`).
 */
export function inPlaceStep(repoDir: string, baseCommit: string, workdir: string): PrepareStep {
  const dir = quoteShellArgument(repoDir);
  const base = quoteShellArgument(`${baseCommit}^{commit}`);
  return {
    name: 'in place',
    cwd: workdir,
    command: [
      // No repository there (the local adapter, an image without the code): stop before touching
      // the user's git config, which on the local adapter is the host user's own.
      `[ -e ${dir}/.git ] || { echo '${noTreeMarker}'; exit 3; };`,
      // Trust the image's tree (root's) once: added only when absent, so repeated runs never grow it.
      `git config --global --get-all safe.directory 2>/dev/null | grep -qxF -- ${dir} || git config --global --add safe.directory ${dir} 2>/dev/null;`,
      `head=$(git -C ${dir} rev-parse -q --verify HEAD 2>/dev/null) || { echo '${noTreeMarker}'; exit 3; };`,
      `want=$(git -C ${dir} rev-parse -q --verify ${base} 2>/dev/null);`,
      `if [ "$head" != "$want" ]; then echo "${repoDir} is at $head, not base_commit ${baseCommit}: the image is not this instance's"; exit 4; fi;`,
      // SWE-bench's images are root's; a sandbox user who cannot write there would fail every patch
      `if [ ! -w ${dir} ] || [ ! -w ${dir}/.git ]; then echo "${repoDir} is not writable by $(id -un) (it belongs to $(stat -c %U ${dir} 2>/dev/null || echo another user)), so no patch can be applied: run the sandbox as that user (an E2B template built from the image: setUser('root'))"; exit 5; fi;`,
      `echo "${repoDir} at $head: evaluating in place"`,
    ].join(' '),
  };
}

/** The preparation steps of a script: the tree step, then the row's `setup_cmd` in the tree when it has one. */
export function preparationSteps(
  treeStep: PrepareStep,
  setupCommand: string | null,
  repoDir: string,
): PrepareStep[] {
  const steps = [treeStep];
  if (setupCommand !== null) steps.push({ name: 'setup', command: setupCommand, cwd: repoDir });
  return steps;
}

/** The whole script (bash). Steps stop at the first failure; see `prepare-script.ts` for the framing. */
export function buildEvalScript(input: EvalScriptInput): string {
  const files: string[] = [];
  const modelPath = `${input.scratchDir}/model.patch`;
  const testPath = `${input.scratchDir}/test.patch`;
  if (input.modelPatch !== null) files.push(hereDocument(modelPath, input.modelPatch));
  files.push(
    hereDocument(testPath, input.testPatch.endsWith('\n') ? input.testPatch : `${input.testPatch}\n`),
  );
  const steps: PrepareStep[] = preparationSteps(input.treeStep, input.setupCommand, input.repoDir);
  if (input.modelPatch !== null)
    steps.push({
      name: 'model patch',
      command: patchStepCommand(modelPath, input.patchPolicy),
      cwd: input.repoDir,
    });
  steps.push({ name: 'tests', command: testStepCommand(input, testPath), cwd: input.repoDir });
  return [
    formatCommand(['mkdir', '-p', input.scratchDir]),
    ...files,
    buildPrepareScript(steps, quoteShellArgument),
    '',
  ].join('\n');
}

/** The test step's body (see the module doc). It exits 1 only when the test patch does not apply. */
export function testStepCommand(input: EvalScriptInput, testPath: string): string {
  const { test } = input;
  const reset =
    test.resetFiles.length === 0
      ? 'echo "No test files to reset"'
      : pinnedGitCommand('checkout', [input.resetRef, ...test.resetFiles]);
  // The spec's `git …` commands with the config that could change what they do pinned (D01), hooks
  // off included (R11); the test command is the repository's own and runs as it is.
  const applyTestPatch = pinGit(test.applyTestPatch);
  const lines = [
    `unset ${injectedEnvironment.join(' ')}`,
    ...test.activate,
    formatCommand(['cd', input.repoDir]),
    ...test.beforeTestPatch.map(pinGit),
    reset,
    ...test.afterReset.map(pinGit),
    `if ! ${applyTestPatch} < ${quoteShellArgument(testPath)}; then echo '${testPatchFailedMarker}'; ${reset}; exit 1; fi`,
    ...test.afterTestPatch,
    `printf '%s\\n' '${startTestOutput}'`,
    test.testCommand,
    `printf '\\n%s\\n' '${endTestOutput}'`,
    reset,
    'exit 0',
  ];
  return lines.join('\n');
}

/** `command` with a leading `git ` given the pinned config (`git -c … `); other commands unchanged. */
function pinGit(command: string): string {
  return command.replace(/^git /, `${formatCommand(['git', ...pinnedGitConfig])} `);
}

/** `cat > path <<'DELIM'` with a delimiter that does not occur in `text` (which ends with a newline). */
function hereDocument(path: string, text: string): string {
  let delimiter = 'SANDKIT_EOF';
  while (text.includes(delimiter)) delimiter = `SANDKIT_EOF_${randomBytes(6).toString('hex')}`;
  return `cat > ${quoteShellArgument(path)} <<'${delimiter}'\n${text}${delimiter}`;
}
