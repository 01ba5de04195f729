/**
 * The whole SWE-bench specification table: every repository and version of the official harness
 * (SWE-bench v4.1.0, 726c5461e2ef52d83cf1ea2107870a8bb3328d57), expanded once on first use.
 * @module
 */
import { cRepoTables } from './c-specs.js';
import { goRepoTables } from './go-specs.js';
import { javaRepoTables } from './java-specs.js';
import { javascriptRepoTables } from './javascript-specs.js';
import { phpRepoTables } from './php-specs.js';
import { pythonRepoTables } from './python-specs.js';
import type { RepoSpec } from './repo-spec.js';
import { expandRepoTable } from './repo-table.js';
import { rubyRepoTables } from './ruby-specs.js';
import { rustRepoTables } from './rust-specs.js';

/** The indexed table: repository (lower case) → version → row. */
export interface SpecTable {
  readonly rows: readonly RepoSpec[];
  readonly byRepo: ReadonlyMap<string, ReadonlyMap<string, RepoSpec>>;
}

let table: SpecTable | undefined;

/** The table, built on the first call and shared afterwards. */
export function specTable(): SpecTable {
  if (table !== undefined) return table;
  const rows = [
    ...pythonRepoTables(),
    ...javascriptRepoTables(),
    ...goRepoTables(),
    ...rustRepoTables(),
    ...javaRepoTables(),
    ...phpRepoTables(),
    ...rubyRepoTables(),
    ...cRepoTables(),
  ].flatMap(expandRepoTable);
  const byRepo = new Map<string, Map<string, RepoSpec>>();
  for (const row of rows) {
    const key = row.repo.toLowerCase();
    const versions = byRepo.get(key) ?? new Map<string, RepoSpec>();
    versions.set(row.version, row);
    byRepo.set(key, versions);
  }
  table = { rows, byRepo };
  return table;
}

/** Every row of the table, in the order of the official files. */
export function allRepoSpecs(): readonly RepoSpec[] {
  return specTable().rows;
}

/** Every repository of the table, as the official table spells it. */
export function knownRepos(): string[] {
  return [...new Set(specTable().rows.map((row) => row.repo))];
}

/** The versions the table knows for `repo` (any case), in table order; empty for an unknown repository. */
export function knownVersions(repo: string): string[] {
  return [...(specTable().byRepo.get(repo.toLowerCase())?.keys() ?? [])];
}
