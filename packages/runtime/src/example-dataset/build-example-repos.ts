/**
 * Builds the git repositories of the embedded SWE-bench-style dataset (`datasets/swebench-mini`
 * in this package) from the plain source snapshots in `repos/<owner>__<name>/<NN>-<slug>/`,
 * deterministically: fixed author, committer, dates and messages, no user or system git config, so
 * every commit SHA is the same on every machine and `instances.jsonl` can pin `base_commit`.
 *
 * `sandkit eval --example` builds them into its cache; the eval tests build them into a temp dir.
 * @module
 */
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execaSync } from 'execa';

/**
 * Directory of the embedded dataset (`datasets/swebench-mini` in `@sandkit/runtime`), found from
 * this module's own location: the same from `src/` in the workspace and from `dist/` once installed.
 */
export const exampleDatasetDir: string = fileURLToPath(
  new URL('../../datasets/swebench-mini/', import.meta.url),
);

/** The dataset's files: `instances.jsonl` (SWE-bench instances) and `predictions-wrong.jsonl`. */
export const exampleDatasetFiles = {
  /** The 6 instances, with their gold `patch`. */
  instances: join(exampleDatasetDir, 'instances.jsonl'),
  /** Model-like predictions: 3 resolved (one only through the official chain's `patch --fuzz=5`), 2 unresolved, 1 empty patch. */
  wrongPredictions: join(exampleDatasetDir, 'predictions-wrong.jsonl'),
} as const;

/** One built repository. */
export interface BuiltExampleRepo {
  /** `owner/name`, as in the instances' `repo` field. */
  repo: string;
  /** Absolute path of the built (non-bare) repository, `<outDir>/<owner>__<name>`. */
  dir: string;
  /** Commit SHAs in snapshot order, keyed by snapshot directory name. */
  commits: Record<string, string>;
}

/** Byproducts of running the tests in a snapshot by hand; never part of a commit. */
const ignored = /(^|\/)(__pycache__|\.pytest_cache|\.benchmarks|node_modules)(\/|$)/;

const epochSeconds = Date.UTC(2024, 0, 1) / 1000;

function git(cwd: string, args: string[], date?: string): string {
  return execaSync('git', ['-c', 'core.autocrlf=false', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    stdin: 'ignore',
    extendEnv: false,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'sandkit-mini',
      GIT_AUTHOR_EMAIL: 'mini@sandkit.invalid',
      GIT_COMMITTER_NAME: 'sandkit-mini',
      GIT_COMMITTER_EMAIL: 'mini@sandkit.invalid',
      ...(date === undefined ? {} : { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }),
      TZ: 'UTC',
      LC_ALL: 'C',
    },
  }).stdout.trim();
}

/**
 * Builds every repository of the dataset into `outDir` (replacing earlier builds there), one
 * non-bare repository per `owner__name`, ready for `sandkit eval --repos <outDir>`.
 * @param datasetDir the dataset whose `repos/` to build. @default {@link exampleDatasetDir}
 * @returns one entry per repository, with the SHA of each snapshot's commit.
 * @throws ExecaSyncError (execa) from git when git is missing or a commit cannot be made.
 */
export function buildExampleRepos(
  outDir: string,
  datasetDir: string = exampleDatasetDir,
): BuiltExampleRepo[] {
  const sourceRoot = join(datasetDir, 'repos');
  const built: BuiltExampleRepo[] = [];
  for (const key of readdirSync(sourceRoot).sort()) {
    const dir = resolve(outDir, key);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    git(dir, ['init', '-q', '-b', 'main']);
    const commits: Record<string, string> = {};
    readdirSync(join(sourceRoot, key))
      .sort()
      .forEach((snapshot, index) => {
        for (const entry of readdirSync(dir))
          if (entry !== '.git') rmSync(join(dir, entry), { recursive: true });
        const snapshotDir = join(sourceRoot, key, snapshot);
        // Only the part below the snapshot counts: an installed package lives under node_modules.
        cpSync(snapshotDir, dir, {
          recursive: true,
          filter: (path) => !ignored.test(relative(snapshotDir, path)),
        });
        git(dir, ['add', '-A']);
        const message = snapshot.replace(/^\d+-/, '').replaceAll('-', ' ');
        git(dir, ['commit', '-q', '-m', message], `@${epochSeconds + index * 86_400} +0000`);
        commits[snapshot] = git(dir, ['rev-parse', 'HEAD']);
      });
    built.push({ repo: key.replace('__', '/'), dir, commits });
  }
  return built;
}
