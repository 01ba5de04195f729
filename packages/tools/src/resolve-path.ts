/**
 * Workspace confinement: every model-supplied path resolves against the root, and is refused
 * (ToolError `outside_root`) when it, or any symlink on its way, leads outside.
 * @module
 */
import { posix } from 'node:path';
import { formatCommand, SandboxError, SandkitErrorCode, ToolError } from '@sandkit/core';
import type { ToolContext } from './coding-tool-options.js';

const realRoots = new WeakMap<object, Map<string, Promise<string>>>();

/**
 * The root with every symlink resolved (`pwd -P`), cached per client and root.
 * @throws SandboxError `cwd_not_found` when the root does not exist.
 */
export function resolveRoot(context: ToolContext): Promise<string> {
  let byRoot = realRoots.get(context.client);
  if (!byRoot) {
    byRoot = new Map();
    realRoots.set(context.client, byRoot);
  }
  const key = context.root ?? '';
  let cached = byRoot.get(key);
  if (!cached) {
    cached = findRealRoot(context);
    cached.catch(() => byRoot.delete(key));
    byRoot.set(key, cached);
  }
  return cached;
}

async function findRealRoot(context: ToolContext): Promise<string> {
  const result = await context.client.exec('pwd -P', context.root === undefined ? {} : { cwd: context.root });
  const path = result.stdout.replace(/\n$/, '');
  if (result.exitCode !== 0 || !path.startsWith('/')) {
    throw new SandboxError({
      code: SandkitErrorCode.cwdNotFound,
      message: `cannot resolve the workspace root ${context.root ?? '(sandbox workdir)'}: ${result.stderr.trim()}`,
    });
  }
  return path;
}

/** A model-supplied path resolved inside the root. */
export interface ResolvedPath {
  /** Absolute sandbox path with symlinks resolved. */
  absolute: string;
  /** Path relative to the root (`.` for the root itself), for results shown to the model. */
  relative: string;
  /** The real root. */
  root: string;
}

/**
 * Resolves `path` (relative to the root, or absolute) and checks that neither the path nor any
 * symlink along it leaves the root. The final component may not exist yet.
 * @throws ToolError `outside_root` with a message telling the model to use a path under the root.
 */
export async function resolveToolPath(context: ToolContext, path: string): Promise<ResolvedPath> {
  const root = await resolveRoot(context);
  if (path.includes('\0')) throw outside(path, root, 'it contains a NUL byte');
  const lexical = posix.resolve(root, path === '' ? '.' : path);
  if (!isInside(root, lexical)) throw outside(path, root);
  // Follow symlinks of the existing part of the path inside the sandbox.
  const result = await context.client.exec(formatCommand(['realpath', '-m', '--', lexical]));
  const real = result.stdout.replace(/\n$/, '');
  if (result.exitCode !== 0 || !real.startsWith('/')) {
    throw new ToolError({ code: SandkitErrorCode.notFound, message: `cannot resolve ${path}: ${result.stderr.trim()}`, details: { path } });
  }
  if (!isInside(root, real)) throw outside(path, root, `a symlink leads to ${real}`);
  return { absolute: real, relative: relativeTo(root, real), root };
}

/** `true` when `path` is `root` or below it (both absolute, normalised). */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** `path` relative to `root`, or `.` for the root itself. */
export function relativeTo(root: string, path: string): string {
  const relative = posix.relative(root, path);
  return relative === '' ? '.' : relative;
}

function outside(path: string, root: string, why?: string): ToolError {
  return new ToolError({
    code: SandkitErrorCode.outsideRoot,
    message: `path "${path}" is outside the workspace root ${root}${why ? ` (${why})` : ''}; use a path inside the root, relative to it`,
    details: { path, root },
  });
}
