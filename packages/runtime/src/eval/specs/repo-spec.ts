/**
 * The shape of one row of the SWE-bench specification table: how the published harness evaluates
 * one repository at one version (SWE-bench, SWE-bench Lite/Verified, SWE-bench Multilingual and the
 * JavaScript repositories of SWE-bench Multimodal).
 *
 * Facts come from SWE-bench v4.1.0 (commit 726c5461e2ef52d83cf1ea2107870a8bb3328d57):
 * `swebench/harness/constants/{python,javascript,go,rust,java,php,ruby,c}.py`
 * (`MAP_REPO_VERSION_TO_SPECS_*`), `swebench/harness/constants/__init__.py` (`FAIL_ONLY_REPOS`,
 * `NON_TEST_EXTS`), `swebench/harness/test_spec/{python,javascript,utils}.py` (the evaluation
 * script and the test directives) and `swebench/harness/log_parsers/*.py` (`MAP_REPO_TO_PARSER`).
 * @module
 */
import type { TestFramework } from '@sandkit/tools';

/** The language family of a repository: it decides the shape of the official evaluation script. */
export type SpecLanguage = 'python' | 'javascript' | 'go' | 'rust' | 'java' | 'php' | 'ruby' | 'c';

/**
 * How the files of an instance's test patch become arguments of the test command
 * (the official "test directives").
 *
 * - `python-paths`: every path of the test patch (`diff --git a/… b/<path>`) whose name does not end
 *   in a non-test extension (`.json .png csv .txt .md .jpg .jpeg .pkl .yml .yaml .toml`; `csv` has no
 *   dot upstream, so `foo.tsv`-like names ending in `csv` are dropped too), appended in patch order.
 *   Used by every Python repository except Django, sympy included.
 * - `django-modules`: the same paths, then `.py` removed, a leading `tests/` removed and `/` → `.`
 *   (`tests/admin_views/tests.py` → `admin_views.tests`).
 * - `humaneval`: always `test.py`.
 * - `calypso`: the test command is built per test file (Automattic/wp-calypso, see
 *   `test-directives.ts`).
 * - `none`: the command is complete as written (every Multilingual repository).
 */
export type DirectiveRule = 'python-paths' | 'django-modules' | 'humaneval' | 'calypso' | 'none';

/** The log parser the official harness grades a repository with (`MAP_REPO_TO_PARSER`), by function name. */
export type OfficialParser =
  | 'parse_log_pytest'
  | 'parse_log_pytest_options'
  | 'parse_log_pytest_v2'
  | 'parse_log_django'
  | 'parse_log_seaborn'
  | 'parse_log_sympy'
  | 'parse_log_matplotlib'
  | 'parse_log_calypso'
  | 'parse_log_chart_js'
  | 'parse_log_marked'
  | 'parse_log_p5js'
  | 'parse_log_react_pdf'
  | 'parse_log_jest'
  | 'parse_log_jest_json'
  | 'parse_log_vitest'
  | 'parse_log_karma'
  | 'parse_log_tap'
  | 'parse_log_immutable_js'
  | 'parse_log_gotest'
  | 'parse_log_cargo'
  | 'parse_log_maven'
  | 'parse_log_ant'
  | 'parse_log_gradle_custom'
  | 'parse_log_phpunit'
  | 'parse_log_ruby_unit'
  | 'parse_log_rspec_transformed_json'
  | 'parse_log_jekyll'
  | 'parse_log_redis'
  | 'parse_log_jq'
  | 'parse_log_doctest'
  | 'parse_log_micropython_test'
  | 'parse_log_googletest';

/**
 * Our parser for a repository's log: a `framework` name of `@sandkit/tools`' `parseTestOutput`
 * (every name the table uses exists there; `official-parser-parity.test.ts` compares its output,
 * in the official id form, with the official parser's).
 */
export type SpecParser = TestFramework;

/** One repository at one version, as the official harness evaluates it. */
export interface RepoSpec {
  /** `owner/name` as the official table spells it (lookups ignore case). */
  readonly repo: string;
  /** The dataset's `version` (a release such as `3.0`, or a pull-request number for per-instance rows). */
  readonly version: string;
  readonly language: SpecLanguage;
  /**
   * The test command's lines, run one after the other between the start and end markers, before
   * the directives are appended (Python: to the single line). `null` when the official table has
   * none (dbt-labs/dbt-core): such rows need a `test_cmd`.
   */
  readonly testCommand: readonly string[] | null;
  readonly directives: DirectiveRule;
  /**
   * Commands that activate the environment, run first (Python: the conda env `testbed`); empty for
   * the other languages, whose images put the toolchain on `PATH`.
   */
  readonly activate: readonly string[];
  /** Python `eval_commands`: run right after activation (Django's locale exports). */
  readonly evalCommands: readonly string[];
  /**
   * Python `install`: the official evaluation script runs it again before the test files are reset
   * and the test patch applied. `null` when the row has none.
   */
  readonly install: string | null;
  /** Non-Python `build`: run after the test patch is applied, before the tests. */
  readonly build: readonly string[];
  /** The official parser; `null` when the official harness has none for this repository. */
  readonly officialParser: OfficialParser | null;
  /** Our parser for the same log; `null` when there is no equivalent. */
  readonly parser: SpecParser | null;
  /** The official grader checks FAIL_TO_PASS only (`FAIL_ONLY_REPOS`). */
  readonly failOnly: boolean;
  /** The version is a pull-request number: this row describes exactly one instance. */
  readonly perInstance: boolean;
  /** The official harness runs this row's tests as a non-root user (`execute_test_as_nonroot`). */
  readonly runAsNonRoot: boolean;
}
