/**
 * The checkout step: a fresh working tree of an instance's `base_commit` from the shared
 * host-side mirror, in one of two ways:
 * - `clone` (sandboxes that see the host's files, i.e. local): `git clone --shared --no-checkout`
 *   borrows the mirror's objects (nothing copied), then a detached checkout of the commit.
 * - `archive` (any sandbox): the host runs `git archive` of the commit, the tar goes in through
 *   `client.writeFile` (Docker: one `putArchive`), and the step unpacks it into a one-commit
 *   repository so `git apply` and `git checkout -- <test files>` work.
 * @module
 */
import { formatCommand, pinnedGitCommand, type SandboxClient } from '@sandkit/core';
import type { EvalLog } from './eval-log.js';
import type { PrepareStep } from './prepare-script.js';
import type { RepoStore } from './repo-store.js';

/**
 * How the working tree gets into the sandbox: `in-place` uses the image's `/testbed` (SWE-bench's
 * images) and falls back to `archive` when the image has none.
 */
export type CheckoutMode = 'clone' | 'archive' | 'in-place';

/** What {@link checkoutStep} needs. */
export interface CheckoutOptions {
  client: SandboxClient;
  log: EvalLog;
  store: RepoStore;
  mode: 'clone' | 'archive';
  repo: string;
  commit: string;
  /** Sandbox path of the working tree to create. */
  repoDir: string;
  /** Existing sandbox directory the step runs in. */
  workdir: string;
  /** Sandbox directory for the harness's own files (the tar). */
  scratchDir: string;
  signal?: AbortSignal;
  /** The `git archive` of `commit` already under way on the host (archive mode); `store.archive` runs otherwise. */
  tar?: Promise<Uint8Array>;
}

/**
 * Does the host side of the checkout (mirror lookup; `git archive` and the upload in archive mode)
 * and returns the step that creates the tree in the sandbox.
 * @throws SandkitError `not_found` from the store when the repository or commit is unavailable.
 */
export async function checkoutStep(options: CheckoutOptions): Promise<PrepareStep> {
  const { client, log, store, repo, commit, repoDir, scratchDir } = options;
  if (options.mode === 'clone') {
    const mirror = await store.mirror(repo);
    const clone = pinnedGitCommand('clone', ['-q', '--shared', '--no-checkout', '--', mirror, repoDir]);
    const checkout = pinnedGitCommand(
      'checkout',
      ['-q', '--detach', commit],
      ['-C', repoDir, '-c', 'advice.detachedHead=false'],
    );
    return { name: 'checkout', command: `${clone} && ${checkout}`, cwd: options.workdir };
  }
  const started = performance.now();
  const tar = await (options.tar ?? store.archive(repo, commit));
  const tarPath = `${scratchDir}/base.tar`;
  await client.writeFile(tarPath, tar, { signal: options.signal });
  log.note(
    `checkout: git archive ${commit} on the host and upload: ${tar.byteLength} bytes in ${Math.round(performance.now() - started)} ms`,
  );
  const identity = [
    '-c',
    'user.name=sandkit',
    '-c',
    'user.email=eval@sandkit.invalid',
    '-c',
    'commit.gpgsign=false',
  ];
  const command = [
    formatCommand(['mkdir', '-p', repoDir]),
    formatCommand(['tar', '-xf', tarPath, '-C', repoDir]),
    formatCommand(['rm', '-f', tarPath]),
    formatCommand(['cd', repoDir]),
    pinnedGitCommand('init', ['-q']),
    pinnedGitCommand('add', ['-A']),
    pinnedGitCommand('commit', ['-q', '--no-verify', '--allow-empty', '-m', `base ${commit}`], identity),
  ].join(' && ');
  return { name: 'checkout', command, cwd: options.workdir };
}
