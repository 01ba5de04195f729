/**
 * The user the stand-in runs commands as, like envd's default user (`user`, home `/home/user`).
 * @module
 */
import { execFileSync } from 'node:child_process';
import { userInfo } from 'node:os';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/** A resolved sandbox user. */
export interface SandboxUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
  /** Home directory (HOME), from the passwd entry. */
  readonly home: string;
  /**
   * `true` when the stand-in runs as root and switches to this user for commands (as envd does);
   * `false` when it runs unprivileged and commands run as the stand-in's own user.
   */
  readonly switched: boolean;
}

/**
 * Resolves `name` from the passwd database when the stand-in runs as root; otherwise the current
 * user (a stand-in that is not root cannot switch users, and says so through `switched: false`).
 * @throws SandkitError `invalid_option` when running as root and `name` does not exist.
 */
export function resolveSandboxUser(name: string): SandboxUser {
  if (process.getuid?.() !== 0) {
    const me = userInfo();
    return { name: me.username, uid: me.uid, gid: me.gid, home: me.homedir, switched: false };
  }
  let entry: string;
  try {
    entry = execFileSync('getent', ['passwd', name], { encoding: 'utf8' }).trim();
  } catch (cause) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `the E2B stand-in runs commands as "${name}" like E2B's templates, but that user does not exist here; create it with \`useradd --create-home --shell /bin/bash ${name}\` (scripts/setup.sh does)`,
      cause,
    });
  }
  const [, , uid, gid, , home] = entry.split(':');
  return { name, uid: Number(uid), gid: Number(gid), home: home ?? `/home/${name}`, switched: true };
}
