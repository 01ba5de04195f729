/**
 * Looking rows up in the SWE-bench specification table: by repository and version, or by an
 * instance (its `repo` and `version`, or, for the Multilingual rows whose version is a pull-request
 * number, its instance id).
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { OfficialParser, RepoSpec, SpecParser } from './repo-spec.js';
import { knownRepos, knownVersions, specTable } from './spec-table.js';

/** What {@link specForInstance} reads from an instance (a SWE-bench dataset row). */
export interface SpecInstanceKey {
  readonly instance_id: string;
  readonly repo: string;
  /**
   * The dataset's `version`, as text: a JSON number would be ambiguous (`1.10` reads as `1.1`, a
   * different sympy row), so the loader must keep the published strings.
   */
  readonly version?: string | undefined;
}

/**
 * The row of `repo` (compared without case: GitHub names are case-insensitive) at `version`, or
 * `undefined` when the table has none; {@link missingSpecMessage} says why.
 */
export function specFor(repo: string, version: string): RepoSpec | undefined {
  return specTable().byRepo.get(repo.toLowerCase())?.get(version);
}

/**
 * The row of an instance: by `repo` and `version`; failing that, for a repository whose rows are
 * per pull request, by the number that ends the instance id (`caddyserver__caddy-6411` → `6411`).
 */
export function specForInstance(instance: SpecInstanceKey): RepoSpec | undefined {
  const direct = instance.version === undefined ? undefined : specFor(instance.repo, instance.version);
  if (direct !== undefined) return direct;
  const pr = /-(\d+)$/.exec(instance.instance_id)?.[1];
  if (pr === undefined) return undefined;
  const row = specFor(instance.repo, pr);
  return row?.perInstance === true ? row : undefined;
}

/** How a repository's logs are read, whatever the version: see {@link repoGradingOf}. */
export interface RepoGrading {
  /** sandkit's parser: the one most of the repository's versions use; `null` when the table has none. */
  readonly parser: SpecParser | null;
  /** The official parser (the reference for the ids); `null` when upstream has none. */
  readonly officialParser: OfficialParser | null;
  /** SWE-bench's FAIL_ONLY grading for the repository. */
  readonly failOnly: boolean;
}

/**
 * How the logs of `repo` (any case) are read when a row has no table row of its own (no version,
 * or an unknown one, with the row's `test_cmd`): as SWE-bench 4 does, whose `MAP_REPO_TO_PARSER`
 * (`swebench/harness/log_parsers/__init__.py`) and FAIL_ONLY list are keyed by repository alone.
 * `undefined` for a repository outside the table.
 */
export function repoGradingOf(repo: string): RepoGrading | undefined {
  const rows = [...(specTable().byRepo.get(repo.toLowerCase())?.values() ?? [])];
  const first = rows[0];
  if (first === undefined) return undefined;
  const counts = new Map<SpecParser | null, number>();
  for (const row of rows) counts.set(row.parser, (counts.get(row.parser) ?? 0) + 1);
  const parser = [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
  return { parser, officialParser: first.officialParser, failOnly: first.failOnly };
}

/**
 * The repository an official instance id names (`owner__name-123` → the table's `owner/name`,
 * compared without case), or `undefined` when the table has no such repository.
 */
export function repoOfInstanceId(instanceId: string): string | undefined {
  const match = /^(.+?)__(.+)-\d+$/.exec(instanceId);
  if (match === null) return undefined;
  const wanted = `${match[1]}/${match[2]}`.toLowerCase();
  return knownRepos().find((repo) => repo.toLowerCase() === wanted);
}

/**
 * The row of a per-pull-request repository from the instance id alone
 * (`tokio-rs__axum-682` → axum's row `682`); `undefined` for release-versioned repositories, whose
 * version the id does not carry.
 */
export function specForInstanceId(instanceId: string): RepoSpec | undefined {
  const repo = repoOfInstanceId(instanceId);
  return repo === undefined ? undefined : specForInstance({ instance_id: instanceId, repo });
}

/**
 * Why `repo` at `version` has no row, and what to do: an unknown repository, an unknown version
 * (with the known ones), or a missing version.
 */
export function missingSpecMessage(repo: string, version: string | undefined): string {
  const versions = knownVersions(repo);
  const fix = 'give the row a test_cmd (and a test_framework) to evaluate it without the table';
  if (versions.length === 0) {
    return `${repo} is not in the SWE-bench spec table (SWE-bench v4.1.0 repositories only); ${fix}`;
  }
  const shown = versions.length > 20 ? `${versions.slice(0, 20).join(', ')}, …` : versions.join(', ');
  if (version === undefined) {
    return `the row of ${repo} has no version; set it to one of ${shown}, or ${fix}`;
  }
  return `${repo} has no version ${JSON.stringify(version)} in the SWE-bench spec table (known: ${shown}); check the row's version, or ${fix}`;
}

/**
 * The row of an instance ({@link specForInstance}).
 * @throws SandkitError with code `invalid_record` when the table has no row; the message names the
 *   known versions and how to evaluate the row anyway (a `test_cmd`).
 */
export function requireSpecForInstance(instance: SpecInstanceKey): RepoSpec {
  const row = specForInstance(instance);
  if (row !== undefined) return row;
  const version = instance.version;
  throw new SandkitError({
    code: SandkitErrorCode.invalidRecord,
    message: `${instance.instance_id}: ${missingSpecMessage(instance.repo, version)}`,
    details: { instanceId: instance.instance_id, repo: instance.repo, version },
  });
}
