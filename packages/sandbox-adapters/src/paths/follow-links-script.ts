/**
 * The shell half of writeFile's symlink rule, shared by the Docker and E2B write scripts: a write
 * through a symlink (or a chain of them) goes to the file the last link points to, the links stay,
 * and a dangling link's target is created, as the local adapter does (local-files.ts).
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';

/** Links followed before a write gives up (Linux's own limit for one path). */
export const maxFollowedLinks = 40;

/**
 * A `case` pattern matching what `LC_ALL=C stat -L` prints for a path whose symlinks loop (the
 * kernel's ELOOP), for scripts that must tell a loop from a missing file.
 */
export const linkLoopStatPattern = "*'Too many levels of symbolic links'*";

/** SandboxError `refused` for a read or write through more than {@link maxFollowedLinks} symlinks. */
export function linkLoopError(action: 'read' | 'write', path: string, cause?: unknown): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.refused,
    message: `cannot ${action} ${path}: more than ${maxFollowedLinks} symbolic links (a loop?); ${action === 'read' ? 'read' : 'write to'} the file the link should lead to`,
    details: { path },
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * POSIX sh that replaces the absolute path in `$<variable>` with the path its trailing symlinks
 * lead to, each relative target joined to its link's directory as it is (the kernel resolves any
 * `..` in it). Uses `sk_n` and `sk_l`; runs `onLoop` (a command, e.g. `exit 27`) after
 * {@link maxFollowedLinks} links. A target ending in newlines keeps them (`readlink; echo .`).
 */
export function followLinksScript(variable: string, onLoop: string): string {
  return `sk_n=0
while [ -L "$${variable}" ]; do
  sk_n=$((sk_n + 1)); if [ $sk_n -gt ${maxFollowedLinks} ]; then ${onLoop}; break; fi
  sk_l=$(readlink -- "$${variable}"; echo .); sk_l=\${sk_l%??}
  case $sk_l in /*) ${variable}=$sk_l ;; *) ${variable}=\${${variable}%/*}/$sk_l ;; esac
done`;
}
