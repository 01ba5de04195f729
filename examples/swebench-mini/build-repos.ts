/**
 * Builds the git repositories of the embedded SWE-bench-style dataset from the plain source
 * snapshots in `repos/<owner>__<name>/<NN>-<slug>/`, deterministically: fixed author, committer,
 * dates and messages, no user or system git config, so every commit SHA is the same on every
 * machine and `instances.jsonl` can pin `base_commit`.
 *
 * Usage: `pnpm tsx examples/swebench-mini/build-repos.ts <out-dir>` → one non-bare repository per
 * `owner__name` in `<out-dir>`, ready for `sandkit eval --repos <out-dir>`.
 * @module
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Directory of this dataset (`examples/swebench-mini`). */
export const miniDatasetDir: string = dirname(fileURLToPath(import.meta.url));

/** One built repository. */
export interface BuiltMiniRepo {
  /** `owner/name`, as in the instances' `repo` field. */
  repo: string;
  /** Absolute path of the built (non-bare) repository. */
  dir: string;
  /** Commit SHAs in snapshot order, keyed by snapshot directory name. */
  commits: Record<string, string>;
}

/** Byproducts of running the tests in a snapshot by hand; never part of a commit. */
const ignored = /(^|\/)(__pycache__|\.pytest_cache|\.benchmarks|node_modules)(\/|$)/;

const epochSeconds = Date.UTC(2024, 0, 1) / 1000;

function git(cwd: string, args: string[], date?: string): string {
  return execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'commit.gpgsign=false', ...args], {
    cwd,
    encoding: 'utf8',
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
  }).trim();
}

/**
 * Builds every repository of the dataset into `outDir` (replacing earlier builds there).
 * @returns one entry per repository, with the SHA of each snapshot's commit.
 * @throws Error from git when a commit cannot be made.
 */
export function buildMiniRepos(outDir: string): BuiltMiniRepo[] {
  const sourceRoot = join(miniDatasetDir, 'repos');
  const built: BuiltMiniRepo[] = [];
  for (const key of readdirSync(sourceRoot).sort()) {
    const dir = resolve(outDir, key);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    git(dir, ['init', '-q', '-b', 'main']);
    const commits: Record<string, string> = {};
    readdirSync(join(sourceRoot, key))
      .sort()
      .forEach((snapshot, index) => {
        for (const entry of readdirSync(dir)) if (entry !== '.git') rmSync(join(dir, entry), { recursive: true });
        cpSync(join(sourceRoot, key, snapshot), dir, { recursive: true, filter: (path) => !ignored.test(path) });
        git(dir, ['add', '-A']);
        const message = snapshot.replace(/^\d+-/, '').replaceAll('-', ' ');
        git(dir, ['commit', '-q', '-m', message], `@${epochSeconds + index * 86_400} +0000`);
        commits[snapshot] = git(dir, ['rev-parse', 'HEAD']);
      });
    built.push({ repo: key.replace('__', '/'), dir, commits });
  }
  return built;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2];
  if (outDir === undefined) {
    process.stderr.write('usage: tsx examples/swebench-mini/build-repos.ts <out-dir>\n');
    process.exit(2);
  }
  for (const repo of buildMiniRepos(outDir)) {
    process.stdout.write(`${repo.repo} → ${repo.dir}\n`);
    for (const [snapshot, sha] of Object.entries(repo.commits)) process.stdout.write(`  ${sha} ${snapshot}\n`);
  }
  if (!existsSync(outDir)) process.exit(1);
}
