import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  type ExecOptions,
  type SandboxClient,
  type SandboxHandle,
  SandkitError,
  SandkitErrorCode,
} from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';

/** A sandbox and the workspace root the tools use in it. */
export interface Workspace {
  client: SandboxClient;
  root: string;
  /** Ends the sandbox (for `local`: only its scratch directory; the workspace directory is kept). */
  close(): Promise<void>;
}

/** Options of {@link openWorkspace}, as given on the command line. */
export interface WorkspaceOptions {
  sandbox: string;
  /** local: a host directory used in place; docker: the workspace path inside the container. */
  root?: string;
  /** docker: the image. */
  image?: string;
}

/**
 * Opens the sandbox the CLI works in.
 * - `local`: the host directory `root` (default: the current directory) used directly: commands
 *   run through the local adapter (own process group, piped stdio, never the CLI's fd 1) with `root`
 *   as their default cwd, and relative file paths resolve against it.
 * - `docker`: a fresh container from `image`, with `root` (default `/workspace`) as its workdir.
 * @throws SandkitError `invalid_option` for an unknown sandbox, a missing directory or image.
 */
export async function openWorkspace(options: WorkspaceOptions): Promise<Workspace> {
  if (options.sandbox === 'local') {
    const root = await realpath(resolve(options.root ?? '.')).catch(() =>
      invalid(`--root ${options.root} does not exist`),
    );
    if (!(await stat(root)).isDirectory()) invalid(`--root ${root} is not a directory`);
    const handle = await createLocalSandboxAdapter().create();
    return { client: directoryClient(handle.client, root), root, close: () => handle.destroy() };
  }
  if (options.sandbox === 'docker') {
    if (!options.image) invalid('--sandbox docker needs --image IMAGE');
    const { createDockerSandboxAdapter } = await import('@sandkit/sandbox-adapters/docker');
    const handle: SandboxHandle = await createDockerSandboxAdapter({
      image: options.image,
      workdir: options.root,
    }).create();
    return { client: handle.client, root: handle.workdir, close: () => handle.destroy() };
  }
  return invalid(`--sandbox must be local or docker, got ${options.sandbox}`);
}

/** The local client with `root` as the default cwd and the base of relative paths. */
function directoryClient(base: SandboxClient, root: string): SandboxClient {
  const at = (path: string): string => resolve(root, path);
  return {
    exec: (command: string, options: ExecOptions = {}) =>
      base.exec(command, { ...options, cwd: at(options.cwd ?? '.') }),
    readFile: (path, options) => base.readFile(at(path), options),
    writeFile: (path, data, options) => base.writeFile(at(path), data, options),
  };
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
