/**
 * Puts a fresh working tree of an instance's `base_commit` into the sandbox, from the shared
 * host-side mirror, in one of two ways:
 * - `clone` (sandboxes that see the host's files, i.e. local): `git clone --shared --no-checkout`
 *   borrows the mirror's objects (nothing copied), then a detached checkout of the commit.
 * - `archive` (any sandbox): the host runs `git archive` of the commit, the tar goes in through
 *   `client.writeFile` (Docker: one `putArchive`), is unpacked, and becomes a one-commit repository
 *   so `git apply` and `git checkout -- <test files>` work.
 * @module
 */
import { formatCommand, type SandboxClient } from '@sandkit/core';
import type { EvalLog } from './eval-log.js';
import type { RepoStore } from './repo-store.js';

/** How the working tree gets into the sandbox. */
export type CheckoutMode = 'clone' | 'archive';

/** Identity for the archive mode's commit (no user config in a fresh sandbox). */
const gitIdentity = {
  GIT_AUTHOR_NAME: 'sandkit',
  GIT_AUTHOR_EMAIL: 'eval@sandkit.invalid',
  GIT_COMMITTER_NAME: 'sandkit',
  GIT_COMMITTER_EMAIL: 'eval@sandkit.invalid',
};

/** What {@link checkoutInstance} needs. */
export interface CheckoutOptions {
  client: SandboxClient;
  log: EvalLog;
  store: RepoStore;
  mode: CheckoutMode;
  repo: string;
  commit: string;
  /** Sandbox path of the working tree to create. */
  repoDir: string;
  /** Sandbox directory for the harness's own files (patches, the tar). */
  scratchDir: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/**
 * Creates the working tree. Returns `null` on success, else a message saying which step failed.
 * @throws SandkitError `not_found` from the store when the repository or commit is unavailable.
 */
export async function checkoutInstance(options: CheckoutOptions): Promise<string | null> {
  const { client, log, store, repo, commit, repoDir, scratchDir } = options;
  const exec = { timeoutMs: options.timeoutMs, signal: options.signal };
  if (options.mode === 'clone') {
    const mirror = await store.mirror(repo, commit);
    const clone = formatCommand(['git', 'clone', '-q', '--shared', '--no-checkout', '--', mirror, repoDir]);
    const checkout = formatCommand([
      'git',
      '-C',
      repoDir,
      '-c',
      'advice.detachedHead=false',
      'checkout',
      '-q',
      '--detach',
      commit,
    ]);
    const result = await log.exec(client, 'checkout', `${clone} && ${checkout}`, exec);
    return result.exitCode === 0 ? null : `checkout of ${commit} failed (exit ${result.exitCode})`;
  }
  const started = performance.now();
  const tar = await store.archive(repo, commit);
  log.note(
    `checkout: git archive ${commit} on the host: ${tar.byteLength} bytes in ${Math.round(performance.now() - started)} ms`,
  );
  const tarPath = `${scratchDir}/base.tar`;
  await client.writeFile(tarPath, tar, { signal: options.signal });
  const script = [
    formatCommand(['mkdir', '-p', repoDir]),
    formatCommand(['tar', '-xf', tarPath, '-C', repoDir]),
    formatCommand(['rm', '-f', tarPath]),
    formatCommand(['cd', repoDir]),
    'git init -q',
    'git add -A',
    formatCommand(['git', 'commit', '-q', '--no-verify', '--allow-empty', '-m', `base ${commit}`]),
  ].join(' && ');
  const result = await log.exec(client, 'checkout', script, { ...exec, env: gitIdentity });
  return result.exitCode === 0 ? null : `unpacking the tree of ${commit} failed (exit ${result.exitCode})`;
}
