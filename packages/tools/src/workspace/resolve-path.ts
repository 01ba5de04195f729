/**
 * Workspace confinement: every model-supplied path resolves against the root, and is refused
 * (ToolError `outside_root`) when it, or any symlink on its way, leads outside.
 * @module
 */
import { posix } from 'node:path';
import { formatCommand, SandboxError, SandkitErrorCode, ToolError } from '@sandkit/core';
import type { ToolContext } from './coding-tool-options.js';
import { checkPathConvention } from './path-convention.js';
import { isWellFormedText, loneSurrogateMessage } from './text-checks.js';
import { findNameTwin, hasNonAscii, twinNotice } from './unicode-name-twin.js';

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
  /** Set when a name matched only after Unicode normalization (unicode-name-twin.ts): what to tell the model. */
  notice?: string;
}

/**
 * Resolves `path` (relative to the root, or absolute) and checks that neither the path nor any
 * symlink along it leaves the root. The final component may not exist yet; when it does not and a
 * name on disk differs from it only in Unicode normalization, that name is used (`notice` says so).
 * @throws ToolError `outside_root` with a message telling the model to use a path under the root;
 *   `invalid_arguments` for a path in another convention (`~/…`, `$HOME/…`, see path-convention.ts).
 */
export async function resolveToolPath(context: ToolContext, path: string): Promise<ResolvedPath> {
  const { resolved } = await resolveInSandbox(context, path, hasNonAscii(path));
  return resolved;
}

/** What a resolved path is: a regular file, a directory, nothing, or something else (device, socket). */
export type ToolPathKind = 'file' | 'directory' | 'missing' | 'other';

/** A {@link ResolvedPath} with what is there (symlinks followed). */
export interface InspectedPath extends ResolvedPath {
  kind: ToolPathKind;
  /** Size in bytes of a regular file; 0 otherwise. */
  size: number;
  /** Hard links of a regular file (`stat %h`); 1 otherwise. */
  links: number;
  /** `device:inode` of a regular file (`stat %d:%i`), when stat gave it. */
  inode?: string;
}

/**
 * {@link resolveToolPath} plus the kind and size of what is there, in the same single `exec`.
 * @throws ToolError `outside_root` as {@link resolveToolPath} does.
 */
export async function inspectToolPath(context: ToolContext, path: string): Promise<InspectedPath> {
  const { resolved, stat } = await resolveInSandbox(context, path, true);
  const [kind, size, links, inode] = stat.split(' ');
  const kinds: ToolPathKind[] = ['file', 'directory', 'missing', 'other'];
  return {
    ...resolved,
    kind: kinds.includes(kind as ToolPathKind) ? (kind as ToolPathKind) : 'other',
    size: Number(size) || 0,
    links: Number(links) || 1,
    ...(inode ? { inode } : {}),
  };
}

/**
 * POSIX sh setting `variable` to `realpath -m` of `quotedPath` (already shell-quoted), running
 * `onFail` when realpath fails. `$(…)` drops every trailing newline, also those of a name ending
 * in one: a sentinel `x` keeps them.
 */
export function realpathInto(variable: string, quotedPath: string, onFail: string): string {
  return `${variable}=$(realpath -m -- ${quotedPath} && printf x) || ${onFail}; ${variable}=\${${variable}%x}; ${variable}=\${${variable}%?}`;
}

const statScript = `${realpathInto('r', '"$1"', 'exit 1')}
printf '%s\\n' "$r"
if [ -d "$r" ]; then echo directory 0; elif [ -f "$r" ]; then echo file $(stat -L -c '%s %h %d:%i' -- "$r"); elif [ -e "$r" ] || [ -L "$r" ]; then echo other 0; else echo missing 0; fi`;

async function resolveInSandbox(
  context: ToolContext,
  path: string,
  withStat: boolean,
): Promise<{ resolved: ResolvedPath; stat: string }> {
  const root = await resolveRoot(context);
  if (path.includes('\0')) throw outside(path, root, 'it contains a NUL byte');
  if (!isWellFormedText(path))
    throw new ToolError({
      code: SandkitErrorCode.invalidArguments,
      message: `path ${JSON.stringify(path)}: ${loneSurrogateMessage('it')}`,
      details: { path },
    });
  checkPathConvention(path);
  const lexical = posix.resolve(root, path === '' ? '.' : path);
  if (!isInside(root, lexical)) throw outside(path, root);
  // Follow symlinks of the existing part of the path inside the sandbox.
  const command = withStat
    ? `set -- ${formatCommand([lexical])}\n${statScript}`
    : formatCommand(['realpath', '-m', '--', lexical]);
  const result = await context.client.exec(command);
  let stdout = result.stdout.replace(/\n$/, '');
  let stat = '';
  if (withStat) {
    const split = stdout.lastIndexOf('\n');
    stat = stdout.slice(split + 1);
    stdout = split === -1 ? '' : stdout.slice(0, split);
  }
  const real = stdout;
  if (result.exitCode !== 0 || !real.startsWith('/')) {
    throw new ToolError({
      code: SandkitErrorCode.notFound,
      message: `cannot resolve ${path}: ${result.stderr.trim()}`,
      details: { path },
    });
  }
  if (!isInside(root, real)) throw outside(path, root, `a symlink leads to ${real}`);
  if (withStat && stat.startsWith('missing') && hasNonAscii(lexical)) {
    const twin = await findNameTwin(context.client, lexical);
    if (twin && isInside(root, twin.path)) {
      const found = await resolveInSandbox(context, twin.path, true);
      const notice = [twinNotice(twin), found.resolved.notice].filter(Boolean).join('; ');
      return { ...found, resolved: { ...found.resolved, notice } };
    }
  }
  return { resolved: { absolute: real, relative: relativeTo(root, real), root }, stat };
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
