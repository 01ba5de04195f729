/**
 * The local adapter: each sandbox is a directory on this machine and commands run as this user.
 *
 * With `isolation: 'none'` (the default) there is NO isolation: a command can read and write
 * anything the host user can. With `isolation: 'bubblewrap'` every command and file operation runs
 * in one bubblewrap sandbox per sandbox (bubblewrap/bubblewrap-session.ts).
 * @module
 */
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, realpath, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type SandboxAdapter,
  type SandboxClient,
  SandboxError,
  type SandboxHandle,
  SandkitError,
  SandkitErrorCode,
} from '@sandkit/core';
import { OutputLogRetention } from '../capture/output-log-retention.js';
import { assertBubblewrapAvailable } from './bubblewrap/bubblewrap-available.js';
import { runBubblewrapCommand } from './bubblewrap/bubblewrap-exec.js';
import { readBubblewrapFile, writeBubblewrapFile } from './bubblewrap/bubblewrap-files.js';
import { BubblewrapSession } from './bubblewrap/bubblewrap-session.js';
import { processTag, runLocalCommand } from './local-exec.js';
import { localOwnerFile, removeLeftoverLocalSandboxes, writeLocalOwner } from './local-leftovers.js';
import { readLocalFile, writeLocalFile } from './local-files.js';
import {
  type LocalSandboxAdapterOptions,
  type NormalizedLocalOptions,
  normalizeLocalOptions,
} from './local-sandbox-options.js';
import {
  groupsWorkingIn,
  killTagged,
  killTaggedSync,
  liveGroups,
  signalGroup,
} from './transport/process-group.js';

/** How long `destroy()` waits for killed process groups to disappear, in ms. */
const destroyWaitMs = 2000;

/** The local sandboxes of this process not yet destroyed: handle id → workdir and its live groups. */
const liveSandboxes = new Map<string, { workdir: string; groups: Set<number> }>();
let exitHookInstalled = false;

/**
 * Runs on `process.exit()` (a second Ctrl-C, an uncaught error): SIGKILLs what every sandbox not yet
 * destroyed started and removes its directories, synchronously, as an exit hook must.
 */
function destroyLiveSandboxesSync(): void {
  for (const [id, { workdir, groups }] of liveSandboxes) {
    for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
    killTaggedSync(processTag.sandbox, id);
    for (const dir of [workdir, localOutputLogDir(workdir), localOwnerFile(workdir)]) {
      try {
        rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
      } catch {
        // nothing more an exit hook can do
      }
    }
  }
  liveSandboxes.clear();
}

/** The log directory of the sandbox whose workdir is `workdir`: a sibling, outside the workdir. */
export function localOutputLogDir(workdir: string): string {
  return `${workdir}.logs`;
}

/**
 * Creates the local adapter. Each `create()` makes a fresh directory `<root>/sandkit-XXXXXX`
 * (copied from `template` when given) and returns a handle whose `workdir` is its real path.
 * Commands' output goes to log files in `<root>/sandkit-XXXXXX.logs/` beside it (`outputLog` of a
 * result names them when a stream was cut; the logs of the last 4 cut commands are kept, and the
 * directory is removed with the sandbox).
 * Every process a command starts carries `SANDKIT_SANDBOX_ID=<handle id>` and
 * `SANDKIT_EXEC_ID=<per command>` in its environment (set after the caller's `env`).
 * A timeout or abort SIGKILLs the command's process group and then every process still tagged with
 * its `SANDKIT_EXEC_ID`; `destroy()` SIGKILLs every process group the sandbox started that is still
 * alive (background children included), every group with a process whose working directory is
 * inside the sandbox, and every process tagged with its `SANDKIT_SANDBOX_ID` (daemons that called
 * `setsid` and left the directory, with `trap '' TERM` too), then removes the directory. On Linux
 * this ends every process the sandbox started except one that cleared its own environment
 * (`env -i`, `exec -c`) and also left the sandbox's groups and directory; elsewhere (no `/proc`) only
 * the tracked groups are killed. If this process exits (`process.exit()`, a second Ctrl-C) before
 * `destroy()` finished, an exit hook SIGKILLs the sandbox's groups and tagged processes and removes
 * its directories. After SIGKILL of this process nothing can, so each sandbox records its owner
 * (pid and start time) in `<workdir>.owner.json`, and the adapter's first `create()` removes
 * the sandboxes under `root` whose owner is gone, killing their tagged processes
 * ({@link removeLeftoverLocalSandboxes}; `sandkit clean` runs it on demand).
 *
 * With `isolation: 'bubblewrap'`, `create()` also starts the sandbox's bwrap (and its egress proxy
 * under an allowlist policy); `destroy()` SIGKILLs it, and the kernel ends every process in its PID
 * namespace with it.
 *
 * @throws SandkitError `invalid_option` for a bad option (see {@link normalizeLocalOptions}).
 * @throws SandkitError `capability_unsupported` for a network policy other than `'all'` without isolation.
 * @throws SandboxError `sandbox_start_failed` from `create()` when the directory cannot be made,
 *   the template is missing or cannot be copied, or bwrap cannot start.
 * @throws SandboxError `sandbox_unavailable` from the first `create()` with bubblewrap when `bwrap` is
 *   missing or the kernel does not let this user create namespaces (the message says how to fix it).
 */
export function createLocalSandboxAdapter(options: LocalSandboxAdapterOptions = {}): SandboxAdapter {
  const normalized = normalizeLocalOptions(options);
  const { root: parent, template } = normalized;
  let bubblewrapChecked: Promise<void> | undefined;
  let leftoversSwept: Promise<unknown> | undefined;
  return {
    name: 'local',
    async create() {
      if (normalized.bubblewrap !== undefined) {
        bubblewrapChecked ??= assertBubblewrapAvailable(normalized.bubblewrap.bwrapPath);
        await bubblewrapChecked;
      }
      let workdir: string | undefined;
      let id = '';
      try {
        if (template !== undefined && !(await stat(template)).isDirectory()) {
          throw new SandkitError({
            code: SandkitErrorCode.notDirectory,
            message: 'the template is not a directory',
          });
        }
        await mkdir(parent, { recursive: true });
        leftoversSwept ??= removeLeftoverLocalSandboxes({ root: parent }).catch(() => undefined);
        await leftoversSwept;
        workdir = await realpath(await mkdtemp(join(parent, 'sandkit-')));
        await mkdir(localOutputLogDir(workdir));
        id = `local-${randomUUID()}`;
        await writeLocalOwner(workdir, id);
        if (template !== undefined)
          await cp(template, workdir, { recursive: true, verbatimSymlinks: true, preserveTimestamps: true });
      } catch (cause) {
        if (workdir !== undefined) {
          await rm(workdir, { recursive: true, force: true }).catch(() => undefined);
          await rm(localOutputLogDir(workdir), { recursive: true, force: true }).catch(() => undefined);
          await rm(localOwnerFile(workdir), { force: true }).catch(() => undefined);
        }
        throw new SandboxError({
          code: SandkitErrorCode.sandboxStartFailed,
          message: `cannot create a local sandbox under ${parent}${template === undefined ? '' : ` from template ${template}`}: ${(cause as Error).message}`,
          cause,
          details: { root: parent, template },
        });
      }
      return createLocalSandbox(id, workdir, normalized);
    },
  };
}

async function createLocalSandbox(
  id: string,
  workdir: string,
  options: NormalizedLocalOptions,
): Promise<SandboxHandle> {
  const groups = new Set<number>();
  liveSandboxes.set(id, { workdir, groups });
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', destroyLiveSandboxesSync);
  }
  const logs = new OutputLogRetention(localOutputLogDir(workdir));
  let session: BubblewrapSession | undefined;
  if (options.bubblewrap !== undefined) {
    try {
      session = await BubblewrapSession.start({
        options: options.bubblewrap,
        workdir,
        logDir: localOutputLogDir(workdir),
        protectedPaths: options.protectedPaths.map((path) => join(workdir, path)),
        network: options.network,
        track: (pid) => groups.add(pid),
      });
    } catch (error) {
      await destroyLocalSandbox(id, workdir, groups);
      liveSandboxes.delete(id);
      throw error;
    }
  }
  let destroying: Promise<void> | undefined;
  const assertLive = (): void => {
    if (destroying !== undefined) {
      throw new SandboxError({
        code: SandkitErrorCode.sandboxDestroyed,
        message: `local sandbox ${workdir} was destroyed; create a new one`,
        details: { workdir },
      });
    }
    if (!existsSync(workdir)) {
      throw new SandboxError({
        code: SandkitErrorCode.sandboxGone,
        message: `local sandbox directory ${workdir} no longer exists (removed outside sandkit); create a new sandbox`,
        details: { workdir },
      });
    }
  };
  const track = (pgid: number, alive: boolean): void => {
    if (alive) groups.add(pgid);
    else groups.delete(pgid);
  };
  const client: SandboxClient =
    session === undefined
      ? {
          async exec(command, execOptions = {}) {
            assertLive();
            return runLocalCommand(command, execOptions, { workdir, sandboxId: id, logs, track });
          },
          async readFile(path, readOptions = {}) {
            assertLive();
            return readLocalFile(workdir, path, readOptions.signal);
          },
          async writeFile(path, data, writeOptions = {}) {
            assertLive();
            return writeLocalFile(workdir, path, data, writeOptions);
          },
        }
      : bubblewrapClient(session, id, workdir, logs, assertLive);
  return {
    id,
    client,
    workdir,
    destroy() {
      destroying ??= (session?.close() ?? Promise.resolve())
        .then(() => destroyLocalSandbox(id, workdir, groups))
        .finally(() => liveSandboxes.delete(id));
      return destroying;
    },
  };
}

/** The client of a bubblewrap sandbox: every operation through its exec server. */
function bubblewrapClient(
  session: BubblewrapSession,
  id: string,
  workdir: string,
  logs: OutputLogRetention,
  assertLive: () => void,
): SandboxClient {
  const context = {
    workdir,
    sandboxId: id,
    logs,
    server: () => session.server(),
    get env() {
      return session.env;
    },
  };
  return {
    async exec(command, execOptions = {}) {
      assertLive();
      return runBubblewrapCommand(command, execOptions, context);
    },
    async readFile(path, readOptions = {}) {
      assertLive();
      return readBubblewrapFile(await session.server(), workdir, path, readOptions.signal);
    },
    async writeFile(path, data, writeOptions = {}) {
      assertLive();
      return writeBubblewrapFile(await session.server(), workdir, path, data, writeOptions);
    },
  };
}

async function destroyLocalSandbox(id: string, workdir: string, groups: Set<number>): Promise<void> {
  // Also end processes that left our groups with setsid (background commands) but still work here.
  for (const pgid of await groupsWorkingIn(workdir)) groups.add(pgid);
  for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
  const deadline = Date.now() + destroyWaitMs;
  while (groups.size > 0 && (await liveGroups(groups)).size > 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 20));
  }
  groups.clear();
  // Daemons that left both our groups and the directory (setsid + cd /, ssh-agent) carry the tag.
  await killTagged(processTag.sandbox, id, Date.now() + destroyWaitMs);
  await rm(workdir, { recursive: true, force: true, maxRetries: 3 });
  await rm(localOutputLogDir(workdir), { recursive: true, force: true, maxRetries: 3 });
  await rm(localOwnerFile(workdir), { force: true });
}
