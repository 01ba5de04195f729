/**
 * One git object store per repository on the host, shared by every instance of that repository:
 * a local mirror used in place (`--repos DIR/owner__name`, bare or not), a mirror cloned once from
 * a bundle (`DIR/owner__name.bundle`) or from a URL into the cache. Instances then get their
 * working tree from it (`git clone --shared` or `git archive`, see `checkout-instance.ts`).
 * Host-side git goes through simple-git, except `git archive`, whose binary tar output simple-git
 * would decode as text.
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pinnedGitArgv, pinnedGitConfig, pinnedGitEnv, SandkitError, SandkitErrorCode } from '@sandkit/core';
import { execa } from 'execa';
import { simpleGit } from 'simple-git';

/** Options of {@link RepoStore}. */
export interface RepoStoreOptions {
  /** Directory with local mirrors: `owner__name` (a clone, bare or not), `owner__name.git`, or `owner__name.bundle`. */
  reposDir: string | null;
  /** Where mirrors cloned from bundles or URLs are kept between runs. */
  cacheDir: string;
  /** Clone URL template with `{repo}` (`owner/name`), e.g. `https://github.com/{repo}.git`; `null` = offline. */
  repoUrl: string | null;
}

/** Host-side mirrors, one per repository, each prepared at most once per process. */
export class RepoStore {
  readonly #options: RepoStoreOptions;
  readonly #mirrors = new Map<string, Promise<string>>();

  constructor(options: RepoStoreOptions) {
    this.#options = options;
  }

  /**
   * The host path of the git directory of `repo`, prepared at most once per store. Whether a
   * commit is in it is checked by the step that uses it (a missing commit fails the checkout),
   * which saves a git process per instance.
   * @throws SandkitError `not_found` when no mirror, bundle or URL provides the repository, or
   *   when `reposDir/owner__name` (or `.git`) exists but is not a git repository.
   */
  mirror(repo: string): Promise<string> {
    let pending = this.#mirrors.get(repo);
    if (pending === undefined) {
      pending = this.#prepare(repo);
      this.#mirrors.set(repo, pending);
    }
    return pending;
  }

  /**
   * A tar archive (bytes) of the tree of `commit`, from the mirror.
   * @throws SandkitError `not_found` when the repository is unavailable or the commit is not in it.
   */
  async archive(repo: string, commit: string): Promise<Uint8Array> {
    const dir = await this.mirror(repo);
    try {
      const [git, ...args] = pinnedGitArgv('archive', ['--format=tar', commit], ['-C', dir]);
      const { stdout } = await execa(git as string, args, {
        env: pinnedGitEnv,
        stdin: 'ignore',
        encoding: 'buffer',
        stripFinalNewline: false,
        maxBuffer: 4 * 1024 ** 3,
      });
      return stdout;
    } catch (cause) {
      const stderr = (cause as { stderr?: Uint8Array }).stderr;
      const reason = stderr === undefined ? String(cause) : Buffer.from(stderr).toString('utf8');
      throw notFound(
        `git archive of ${commit} from ${dir} failed (${reason.trim()}); update the mirror (git fetch) or fix base_commit`,
      );
    }
  }

  async #prepare(repo: string): Promise<string> {
    const key = repo.replace('/', '__');
    const { reposDir, cacheDir, repoUrl } = this.#options;
    if (reposDir !== null) {
      for (const candidate of [join(reposDir, key), join(reposDir, `${key}.git`)]) {
        if (!existsSync(candidate)) continue;
        if (isGitRepository(candidate)) return candidate;
        throw notFound(
          `--repos: ${candidate} exists but is not a git repository or mirror (no .git in it, nor a bare repository's HEAD and objects/); --repos expects DIR/${key} as a git clone (bare or not), DIR/${key}.git, or a bundle DIR/${key}.bundle (for the embedded dataset, sandkit eval --example builds them into ${join(cacheDir, 'swebench-mini')}; its repos/ folder holds only their sources)`,
        );
      }
    }
    const cached = join(cacheDir, `${key}.git`);
    if (existsSync(cached)) return cached;
    const bundle = reposDir === null ? null : join(reposDir, `${key}.bundle`);
    const source = bundle !== null && existsSync(bundle) ? bundle : repoUrl?.replaceAll('{repo}', repo);
    if (source === undefined) {
      throw notFound(
        `no mirror of ${repo}: put a clone at ${reposDir ?? '<repos>'}/${key} or a bundle at ${key}.bundle (--repos), or pass --repo-url`,
      );
    }
    await mkdir(cacheDir, { recursive: true });
    const partial = `${cached}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await simpleGit({ config: pinnedGitConfigPairs() })
      .env({ ...process.env, ...pinnedGitEnv })
      .clone(source, partial, ['--mirror', '--quiet']);
    await rename(partial, cached);
    return cached;
  }
}

/**
 * Whether `dir` is a git repository: a work tree with `.git` (a directory, or a file pointing to
 * one), or a bare repository (`HEAD` and `objects/`). A cheap look at the layout, not a git call;
 * git itself fails later on a broken one.
 */
function isGitRepository(dir: string): boolean {
  return existsSync(join(dir, '.git')) || (existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects')));
}

function notFound(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.notFound, message });
}

/** core's pinned `-c` options as simple-git's `config` list (`name=value` strings). */
function pinnedGitConfigPairs(): string[] {
  return pinnedGitConfig.filter((_, index) => index % 2 === 1);
}
