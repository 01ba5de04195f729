/**
 * The local adapter: each sandbox is a directory on this machine and commands run as this user.
 *
 * There is NO isolation: a command can read and write anything the host user can. Use it for
 * tests, trusted tasks, and development; use the Docker or E2B adapter for untrusted code.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { cp, mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ExecOptions,
  type SandboxAdapter,
  SandboxError,
  type SandboxHandle,
  SandkitErrorCode,
  type SandboxClient,
} from '@sandkit/core';
import { readLocalFile, writeLocalFile } from './local-files.js';
import { runLocalCommand, signalGroup } from './local-exec.js';

/** Options of {@link createLocalSandboxAdapter}. */
export interface LocalSandboxAdapterOptions {
  /**
   * Parent directory in which each sandbox's directory is made (with mkdtemp).
   * @default os.tmpdir()
   */
  root?: string;
  /** A directory whose contents are copied into every new sandbox. @default none (empty sandbox) */
  template?: string;
}

/**
 * Creates the local adapter. Each `create()` makes a fresh directory `<root>/sandkit-XXXXXX`
 * (copied from `template` when given) and returns a handle whose `workdir` is that directory.
 * `destroy()` kills every process group the sandbox started and removes the directory.
 *
 * @throws SandboxError `sandbox_start_failed` from `create()` when the directory cannot be made or the template copied.
 */
export function createLocalSandboxAdapter(options: LocalSandboxAdapterOptions = {}): SandboxAdapter {
  const parent = options.root ?? tmpdir();
  return {
    name: 'local',
    async create() {
      let workdir: string;
      try {
        await mkdir(parent, { recursive: true });
        workdir = await realpath(await mkdtemp(join(parent, 'sandkit-')));
        if (options.template !== undefined) await cp(options.template, workdir, { recursive: true, verbatimSymlinks: true });
      } catch (cause) {
        throw new SandboxError({
          code: SandkitErrorCode.sandboxStartFailed,
          message: `cannot create a local sandbox under ${parent}: ${(cause as Error).message}`,
          cause,
        });
      }
      return createLocalSandbox(workdir);
    },
  };
}

function createLocalSandbox(workdir: string): SandboxHandle {
  const groups = new Set<number>();
  let destroyed = false;
  const assertLive = (): void => {
    if (destroyed) {
      throw new SandboxError({ code: SandkitErrorCode.sandboxDestroyed, message: `local sandbox ${workdir} was destroyed; acquire a new one` });
    }
  };
  const client: SandboxClient = {
    async exec(command: string, execOptions: ExecOptions = {}) {
      assertLive();
      return runLocalCommand(command, execOptions, {
        workdir,
        track: (pgid, alive) => (alive ? groups.add(pgid) : groups.delete(pgid)),
      });
    },
    async readFile(path, readOptions = {}) {
      assertLive();
      return readLocalFile(workdir, path, readOptions.signal);
    },
    async writeFile(path, data, writeOptions = {}) {
      assertLive();
      return writeLocalFile(workdir, path, data, writeOptions);
    },
  };
  return {
    id: `local-${randomUUID()}`,
    client,
    workdir,
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
      await rm(workdir, { recursive: true, force: true });
    },
  };
}
