/**
 * A stand-in sandbox's own directories. A real E2B sandbox is a VM with its own file system, made
 * from its template; on a shared host the stand-in gives a sandbox private copies of the
 * directories a template defines (its home, `/testbed`, …): each is a directory under the
 * sandbox's root, bind-mounted over its sandbox path in a mount namespace of its own (util-linux
 * `unshare --mount`) for every command, and mapped to the same host directory for every file call.
 * Every other path is the host's, shared by all sandboxes.
 *
 * Needs root (mount namespaces). The mount point itself (`/testbed`, say) is made on the host when
 * missing, empty, and left there: removing it would detach the mount from sandboxes still running.
 * @module
 */
import { execFile } from 'node:child_process';
import { chown, mkdir } from 'node:fs/promises';
import { posix } from 'node:path';
import { promisify } from 'node:util';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { SandboxUser } from './sandbox-user.js';

const run = promisify(execFile);
/** Whether `unshare --mount` works here, asked once per process: `null`, or why it fails. */
let unshareProbe: Promise<string | null> | undefined;

/**
 * Directories of a template: sandbox path (absolute) → the host directory copied in as its content
 * when a sandbox starts (`cp -a`, ownership kept), or `null` for an empty directory owned by the
 * sandbox's user.
 */
export type TemplateDirectories = Readonly<Record<string, string | null>>;

/** The paths of one sandbox. */
export interface SandboxFileSystem {
  /** The host path where `path` (absolute, in the sandbox) lives. */
  hostPath(path: string): string;
  /**
   * The program, arguments and cwd that run `argv` in `cwd` (a sandbox path) with the sandbox's
   * directories mounted; `argv` itself when the sandbox has none.
   */
  command(argv: readonly string[], cwd: string): { file: string; args: string[]; cwd: string };
}

/** The mount script: `dir path` pairs, `--`, the cwd, then the command. */
const mountScript =
  'while [ "$1" != -- ]; do mount --bind "$1" "$2" || exit 125; shift 2; done; shift; cd "$1" || exit 125; shift; exec "$@"';

/**
 * Copies each template directory into `<root>/fs/<n>` and returns the sandbox's paths.
 * @throws SandkitError `invalid_option` for a relative or nested path, or when directories are
 *   asked for and the stand-in does not run as root or may not make a mount namespace; the `cp`
 *   failure otherwise.
 */
export async function createSandboxFileSystem(
  root: string,
  directories: TemplateDirectories,
  user: SandboxUser,
): Promise<SandboxFileSystem> {
  const entries = Object.entries(directories).map(([path, source], index) => ({
    path: posix.normalize(path).replace(/(.)\/$/, '$1'),
    source,
    host: posix.join(root, 'fs', String(index)),
  }));
  if (entries.length === 0)
    return {
      hostPath: (path) => path,
      command: ([file, ...args], cwd) => ({ file: file as string, args, cwd }),
    };
  for (const { path } of entries) {
    if (!path.startsWith('/') || path === '/')
      throw invalid(`template directory "${path}" must be an absolute path below /`);
    const nested = entries.find((other) => other.path !== path && path.startsWith(`${other.path}/`));
    if (nested) throw invalid(`template directory "${path}" lies inside "${nested.path}"; give one of them`);
  }
  if (process.getuid?.() !== 0)
    throw invalid(
      'template directories need a stand-in run as root (it bind-mounts them in a mount namespace)',
    );
  unshareProbe ??= run('unshare', ['--mount', '--', 'true']).then(
    () => null,
    (cause: Error) => cause.message.trim(),
  );
  const refused = await unshareProbe;
  if (refused !== null)
    throw invalid(
      `template directories need mount namespaces, and \`unshare --mount\` fails here (${refused}); run the stand-in where root may unshare (CAP_SYS_ADMIN), or use templates without directories`,
    );
  for (const { path, source, host } of entries) {
    await mkdir(path, { recursive: true });
    if (source === null) {
      await mkdir(host, { recursive: true });
      if (user.switched) await chown(host, user.uid, user.gid);
    } else {
      await mkdir(posix.dirname(host), { recursive: true });
      await run('cp', ['-a', '--', source, host]);
    }
  }
  const binds = entries.flatMap(({ host, path }) => [host, path]);
  return {
    hostPath(path) {
      const entry = entries.find(({ path: dir }) => path === dir || path.startsWith(`${dir}/`));
      return entry === undefined ? path : entry.host + path.slice(entry.path.length);
    },
    command: (argv, cwd) => ({
      file: 'unshare',
      args: [
        '--mount',
        '--propagation',
        'private',
        '--',
        '/bin/sh',
        '-c',
        mountScript,
        'mount',
        ...binds,
        '--',
        cwd,
        ...argv,
      ],
      cwd: '/',
    }),
  };
}

function invalid(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message: `the E2B stand-in: ${message}` });
}
