/**
 * The bwrap command line of a sandbox: which host paths it sees, which it may write, and which
 * namespaces it gets. Paths keep their host names inside, so a path means the same on both sides.
 * @module
 */
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { NormalizedBubblewrapOptions } from './bubblewrap-options.js';

/** What {@link bubblewrapArgs} lays out. */
export interface BubblewrapLayout {
  readonly options: NormalizedBubblewrapOptions;
  /** The workspace (writable). */
  readonly workdir: string;
  /** The log directory (writable: the exec server opens the commands' log files there). */
  readonly logDir: string;
  /** Absolute paths inside the workspace to keep read-only (those that exist are bound). */
  readonly protectedPaths: readonly string[];
  /** Whether the sandbox keeps the host's network namespace (`network: 'all'`). */
  readonly shareNetwork: boolean;
  /** A host directory to show read-only (the egress proxy's socket), or none. */
  readonly proxyDir: string | undefined;
}

/** What a shell needs when only `readPaths` are visible. */
const systemPaths = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/etc'];

/**
 * The arguments before `--` and the program: mounts in the order bwrap applies them (a later mount
 * over a path hides an earlier one), then namespaces and process options.
 */
export function bubblewrapArgs(layout: BubblewrapLayout): string[] {
  const { options } = layout;
  const args: string[] = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc'];
  args.push('--unshare-uts', '--unshare-cgroup-try', '--cap-drop', 'ALL');
  if (!layout.shareNetwork) args.push('--unshare-net');
  if (options.readPaths === undefined) args.push('--ro-bind', '/', '/');
  else {
    const node = dirname(dirname(realpathSync(process.execPath)));
    for (const path of new Set([...systemPaths, node, ...options.readPaths]))
      args.push('--ro-bind-try', path, path);
  }
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--tmpfs', '/var/tmp');
  // Host services listen under /run (the Docker or Podman socket, D-Bus): none of them is the sandbox's.
  args.push('--tmpfs', '/run');
  if (layout.shareNetwork) {
    // /etc/resolv.conf is often a link into /run (systemd-resolved): keep the file it names.
    const resolv = resolvedTarget('/etc/resolv.conf');
    if (resolv?.startsWith('/run/')) args.push('--ro-bind', resolv, resolv);
  }
  for (const path of options.hiddenPaths) {
    const info = lstatOrUndefined(path);
    if (info === undefined) continue;
    if (info.isDirectory()) args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  for (const path of options.writePaths) if (existsSync(path)) args.push('--bind', path, path);
  args.push('--bind', layout.workdir, layout.workdir, '--bind', layout.logDir, layout.logDir);
  if (layout.proxyDir !== undefined) args.push('--ro-bind', layout.proxyDir, layout.proxyDir);
  for (const path of layout.protectedPaths) if (existingNoLink(path)) args.push('--ro-bind', path, path);
  args.push('--chdir', layout.workdir);
  return args;
}

/**
 * The protected paths that exist now as themselves (not as a link: a link inside the workspace
 * could name a host path, which bwrap would then bind over the host's own view).
 */
export function existingProtectedPaths(paths: readonly string[]): string[] {
  return paths.filter(existingNoLink);
}

function existingNoLink(path: string): boolean {
  const info = lstatOrUndefined(path);
  return info !== undefined && !info.isSymbolicLink();
}

function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

function resolvedTarget(path: string): string | undefined {
  try {
    statSync(path);
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
