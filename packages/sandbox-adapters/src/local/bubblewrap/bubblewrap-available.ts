/**
 * Whether bubblewrap can run here: the `bwrap` binary, and a kernel that lets this user create the
 * namespaces it asks for. Checked once per adapter, at the first `create()`.
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import { execa } from 'execa';

/**
 * Runs `bwrap` with the namespaces a sandbox uses around `true`.
 * @throws SandboxError `sandbox_unavailable` when bwrap is missing or cannot create namespaces; the
 *   message says how to install or enable it.
 */
export async function assertBubblewrapAvailable(bwrapPath: string): Promise<void> {
  const probe = await execa(
    bwrapPath,
    ['--ro-bind', '/', '/', '--unshare-pid', '--unshare-net', '--die-with-parent', '--', 'true'],
    { reject: false, stdin: 'ignore', timeout: 10_000 },
  );
  if (probe.exitCode === 0) return;
  const missing = (probe.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
  throw new SandboxError({
    code: SandkitErrorCode.sandboxUnavailable,
    message: bubblewrapUnavailableMessage(bwrapPath, missing, String(probe.stderr || probe.message)),
    cause: probe.cause,
    details: { bwrapPath, stderr: probe.stderr },
  });
}

/**
 * The message for a failed probe. The kernel cases are told apart by bwrap's own messages
 * (bubblewrap.c: "No permissions to creating new namespace, likely because the kernel does not allow
 * non-privileged user namespaces", "Creating new namespace failed, likely because the kernel does
 * not support user namespaces", and "setting up uid map: Permission denied" under AppArmor's
 * `apparmor_restrict_unprivileged_userns`).
 */
export function bubblewrapUnavailableMessage(bwrapPath: string, missing: boolean, stderr: string): string {
  if (missing) {
    return `isolation 'bubblewrap' needs the bwrap program, and ${bwrapPath} was not found: install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap; Alpine: apk add bubblewrap) or set bubblewrap.bwrapPath`;
  }
  if (/namespace|uid map|Operation not permitted|Permission denied/i.test(stderr)) {
    return `isolation 'bubblewrap' cannot create namespaces on this kernel (${stderr.trim()}): enable unprivileged user namespaces (sysctl -w kernel.unprivileged_userns_clone=1 on Debian; on Ubuntu 23.10+ also sysctl -w kernel.apparmor_restrict_unprivileged_userns=0, or an AppArmor profile for bwrap), or inside a container run it with --security-opt seccomp=unconfined, or use the Docker adapter`;
  }
  return `isolation 'bubblewrap' is unavailable: ${bwrapPath} failed (${stderr.trim()}); run \`${bwrapPath} --ro-bind / / true\` to see why`;
}
