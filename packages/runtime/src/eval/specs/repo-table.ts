/**
 * The compact form the language tables are written in (`python-specs.ts`, `go-specs.ts`, …) and
 * its expansion into {@link RepoSpec} rows: one entry per repository with the fields all its
 * versions share, and per version only what differs.
 * @module
 */
import type { DirectiveRule, OfficialParser, RepoSpec, SpecLanguage, SpecParser } from './repo-spec.js';

/** What one version (or group of versions) of a repository sets. */
export interface VersionFields {
  /** The test command: one line, several lines, or `null` when the official table has none. */
  readonly test: string | readonly string[] | null;
  /** Python `install` (re-run by the evaluation script). */
  readonly install?: string;
  /** Python `eval_commands`. */
  readonly evalCommands?: readonly string[];
  /** Non-Python `build` (run after the test patch is applied). */
  readonly build?: readonly string[];
  /** This version's parser when it differs from the repository's (immutable-js, jekyll). */
  readonly parser?: SpecParser;
  /** `execute_test_as_nonroot`. */
  readonly nonRoot?: boolean;
}

/** One repository of a language table. */
export interface RepoTable {
  readonly repo: string;
  readonly language: SpecLanguage;
  readonly officialParser: OfficialParser | null;
  readonly parser: SpecParser | null;
  /** @default `python-paths` for Python, `none` for the other languages */
  readonly directives?: DirectiveRule;
  /** @default false */
  readonly failOnly?: boolean;
  /** Versions are pull-request numbers (one instance each). @default false */
  readonly perInstance?: boolean;
  /** Version → its fields. A test line given as a plain string is a one-line command. */
  readonly versions: Readonly<Record<string, VersionFields | string>>;
}

/** The conda activation of every official Python image (`source …/activate`, env `testbed`). */
export const condaActivation: readonly string[] = [
  'source /opt/miniconda3/bin/activate',
  'conda activate testbed',
];

/** The same fields for each of `versions` (the official tables' `{k: {...} for k in [...]}`). */
export function forVersions(
  versions: readonly string[],
  fields: VersionFields,
): Record<string, VersionFields> {
  return Object.fromEntries(versions.map((version) => [version, fields]));
}

/** Expands one repository's entry into one {@link RepoSpec} per version. */
export function expandRepoTable(table: RepoTable): RepoSpec[] {
  const python = table.language === 'python';
  return Object.entries(table.versions).map(([version, given]): RepoSpec => {
    const fields: VersionFields = typeof given === 'string' ? { test: given } : given;
    return {
      repo: table.repo,
      version,
      language: table.language,
      testCommand:
        fields.test === null ? null : typeof fields.test === 'string' ? [fields.test] : fields.test,
      directives: table.directives ?? (python ? 'python-paths' : 'none'),
      activate: python ? condaActivation : [],
      evalCommands: fields.evalCommands ?? [],
      install: fields.install ?? null,
      build: fields.build ?? [],
      officialParser: table.officialParser,
      parser: fields.parser ?? table.parser,
      failOnly: table.failOnly ?? false,
      perInstance: table.perInstance ?? false,
      runAsNonRoot: fields.nonRoot ?? false,
    };
  });
}
