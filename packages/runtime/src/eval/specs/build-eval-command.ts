/**
 * `buildEvalCommand`: the parts of an instance's evaluation script, as the official harness builds
 * them from the spec table (SWE-bench v4.1.0, 726c5461e2ef52d83cf1ea2107870a8bb3328d57:
 * `swebench/harness/test_spec/python.py` `make_eval_script_list_py`,
 * `test_spec/utils.py` `make_eval_script_list_common`, `test_spec/javascript.py`
 * `make_eval_script_list_js`). A row's own `test_cmd` and `test_framework` override the table.
 *
 * Official order, Python: activate, `cd /testbed`, {@link EvalCommand.beforeTestPatch} (eval_commands,
 * then install), reset the test files, apply the test patch, the test command, reset again.
 * Other languages: `cd /testbed`, reset, {@link EvalCommand.afterReset}, apply,
 * {@link EvalCommand.afterTestPatch} (build), the test command, reset again.
 *
 * One deliberate difference: a directive with characters outside `[A-Za-z0-9_\-+=.,/:@%^]` is
 * shell-quoted (upstream pastes it raw, so a path with a space or `$` breaks its command). For every
 * other path the command is byte-for-byte the official one.
 * @module
 */
import { quoteShellArgument, SandkitError, SandkitErrorCode } from '@sandkit/core';
import { calypsoTestCommands } from './calypso-test-commands.js';
import type { OfficialParser, RepoSpec } from './repo-spec.js';
import { repoGradingOf, requireSpecForInstance, type SpecInstanceKey, specForInstance } from './spec-for.js';
import { testDirectives } from './test-directives.js';
import { testPatchFiles } from './test-patch-files.js';

/** What {@link buildEvalCommand} reads from a dataset row. */
export interface EvalCommandInstance extends SpecInstanceKey {
  readonly test_patch: string;
  /** Overrides the table's command (used as written, no directives appended). */
  readonly test_cmd?: string | undefined;
  /** Overrides the table's parser. */
  readonly test_framework?: string | undefined;
  /** SWE-bench Multimodal: images the test patch needs (`{ test_patch: [{ path, url }] }`, or that as JSON). */
  readonly image_assets?: unknown;
}

/** The parts of one instance's evaluation script. */
export interface EvalCommand {
  /** The table row used, `undefined` when the row's `test_cmd` stands alone. */
  readonly spec: RepoSpec | undefined;
  /** `row` when the command is the row's `test_cmd`. */
  readonly source: 'spec' | 'row';
  /** Environment activation, run first (Python: conda `testbed`). */
  readonly activate: readonly string[];
  /** Run after activation, before the test files are reset: Python `eval_commands`, then `install`. */
  readonly beforeTestPatch: readonly string[];
  /** Run after the reset, before the test patch (Multimodal image downloads). */
  readonly afterReset: readonly string[];
  /**
   * The command that applies the test patch, read from stdin: `git apply -v -` (Python) or
   * `git apply --verbose --reject -` (the other languages).
   */
  readonly applyTestPatch: string;
  /** Run after the test patch is applied, before the tests (`build`). */
  readonly afterTestPatch: readonly string[];
  /** The lines between the start and end markers, joined by `\n`. */
  readonly testCommand: string;
  /** The test directives appended to the command (empty for a row `test_cmd`). */
  readonly directives: readonly string[];
  /** The files reset to `base_commit` before and after the tests (`get_modified_files`). */
  readonly testFiles: readonly string[];
  /**
   * The parser to read the log with: the row's `test_framework`, else the table's (for a row
   * without a table row of its own, the repository's: see `repoGradingOf`), else `pytest` (the
   * Python rows the official harness has no parser for: dbt-core, humaneval; see
   * {@link EvalCommand.officialParser}).
   */
  readonly parser: string;
  /**
   * The official parser (the reference for the ids): the table row's, else the repository's (a row
   * with its own `test_cmd` and no or an unknown version); `null` when the repository has none.
   */
  readonly officialParser: OfficialParser | null;
  /** Grade FAIL_TO_PASS only, as the official grader does for this repository. */
  readonly failOnly: boolean;
}

/**
 * Builds the evaluation parts of `instance` from the spec table and the row's overrides.
 * @throws SandkitError with code `invalid_record` when the row has no `test_cmd` and the table has
 *   no row for its repository and version (the message lists the known versions), or a row without
 *   an official command (dbt-core); and when `image_assets` is text that is not JSON. Callers with a
 *   fallback for unknown repositories check `specForInstance` first.
 */
export function buildEvalCommand(instance: EvalCommandInstance): EvalCommand {
  const spec = instance.test_cmd === undefined ? requireCommandSpec(instance) : specForInstance(instance);
  // A row with its own test_cmd and no table row (no version, or an unknown one) of a known
  // repository is read as the repository's logs are: upstream picks the parser by repository.
  const grading = spec ?? repoGradingOf(instance.repo);
  const python = spec === undefined || spec.language === 'python';
  const directives =
    instance.test_cmd !== undefined || spec === undefined
      ? []
      : testDirectives(spec.directives, instance.test_patch);
  return {
    spec,
    source: instance.test_cmd === undefined ? 'spec' : 'row',
    activate: spec?.activate ?? [],
    beforeTestPatch:
      spec === undefined ? [] : [...spec.evalCommands, ...(spec.install === null ? [] : [spec.install])],
    afterReset:
      spec?.language === 'javascript' ? imageAssetCommands(instance.instance_id, instance.image_assets) : [],
    applyTestPatch: python ? 'git apply -v -' : 'git apply --verbose --reject -',
    afterTestPatch: spec?.build ?? [],
    testCommand: instance.test_cmd ?? tableCommand(spec!, instance, directives),
    directives,
    testFiles: testPatchFiles(instance.test_patch),
    parser: instance.test_framework ?? grading?.parser ?? 'pytest',
    officialParser: grading?.officialParser ?? null,
    failOnly: grading?.failOnly ?? false,
  };
}

/** The table row, which must have an official command. */
function requireCommandSpec(instance: EvalCommandInstance): RepoSpec {
  const spec = requireSpecForInstance(instance);
  if (spec.testCommand !== null) return spec;
  throw new SandkitError({
    code: SandkitErrorCode.invalidRecord,
    message: `${instance.instance_id}: the official harness has no test command for ${spec.repo} ${spec.version}; give the row a test_cmd (and a test_framework)`,
    details: { instanceId: instance.instance_id, repo: spec.repo, version: spec.version },
  });
}

function tableCommand(spec: RepoSpec, instance: EvalCommandInstance, directives: readonly string[]): string {
  if (spec.directives === 'calypso') return calypsoTestCommands(spec.version, instance.test_patch).join('\n');
  const lines = spec.testCommand!;
  if (spec.language !== 'python') return lines.join('\n');
  return [lines.join('\n'), ...directives.map(quoteShellArgument)].join(' ');
}

/** `mkdir -p`, `curl -o`, `chmod 777` per image of the test patch (`get_download_img_commands`). */
function imageAssetCommands(instanceId: string, assets: unknown): string[] {
  const parsed: unknown = typeof assets === 'string' ? parseAssets(instanceId, assets) : assets;
  if (typeof parsed !== 'object' || parsed === null) return [];
  const images: unknown = (parsed as { test_patch?: unknown }).test_patch;
  if (!Array.isArray(images)) return [];
  return images
    .filter(isImageAsset)
    .flatMap((image) => [
      `mkdir -p ${parentDirectory(image.path)}`,
      `curl -o ${image.path} ${image.url}`,
      `chmod 777 ${image.path}`,
    ]);
}

function isImageAsset(value: unknown): value is { path: string; url: string } {
  const asset = value as { path?: unknown; url?: unknown } | null;
  return typeof asset?.path === 'string' && typeof asset.url === 'string';
}

function parseAssets(instanceId: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidRecord,
      message: `${instanceId}: image_assets is not valid JSON; give it as an object { test_patch: [{ path, url }] } or its JSON text`,
      cause,
      details: { instanceId },
    });
  }
}

/** Python's `Path(path).parent` for a relative POSIX path. */
function parentDirectory(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  return slash <= 0 ? (slash === 0 ? '/' : '.') : trimmed.slice(0, slash);
}
