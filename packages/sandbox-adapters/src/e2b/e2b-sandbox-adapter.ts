/**
 * The E2B adapter: one E2B cloud sandbox per sandkit sandbox, through the official SDK
 * (`@e2b/code-interpreter`, whose `Sandbox` extends the `e2b` SDK's).
 *
 * Every command passes an explicit SDK `timeoutMs`; a timeout or abort kills the command's whole
 * process group inside the sandbox and checks it is gone; a non-zero exit (`CommandExitError`)
 * is a normal result. A sandbox that expired or was killed surfaces as SandboxError `sandbox_gone`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { posix } from 'node:path';
import {
  type SandboxAdapter,
  type SandboxClient,
  type SandboxCreateOptions,
  SandboxError,
  type SandboxHandle,
  SandkitError,
  SandkitErrorCode,
} from '@sandkit/core';
import type { Sandbox } from 'e2b';
import { OutputLogRetention } from '../capture/output-log-retention.js';
import { checkedPath } from '../paths/checked-path.js';
import { reconnectE2BSandbox, startE2BSandbox } from './transport/e2b-connection.js';
import { lifecycleError } from './transport/e2b-errors.js';
import { runE2BCommand } from './e2b-exec.js';
import { execDir } from './e2b-exec-script.js';
import { type E2BFileRequest, readE2BFile, writeE2BFile } from './e2b-files.js';
import {
  type E2BSandboxAdapterOptions,
  e2bNetworkOptions,
  type NormalizedE2BOptions,
  normalizeE2BOptions,
} from './e2b-options.js';
import { E2BStagingFiles } from './e2b-staging-files.js';

/** An E2B sandbox handle: the common handle plus E2B's lifetime controls. */
export interface E2BSandboxHandle extends SandboxHandle {
  /** The SDK's sandbox object, for vendor features sandkit does not wrap. */
  readonly sandbox: Sandbox;
  /**
   * Sets the sandbox's remaining lifetime to `ms` from now (E2B `setTimeout`). The pool calls it on
   * acquire with the task's budget plus a margin (case C16).
   * @throws SandboxError `sandbox_gone` when the sandbox already ended.
   */
  extendLifetime(ms: number): Promise<void>;
  /**
   * Pauses the sandbox (E2B `pause`): its processes stop and every client call throws
   * `sandbox_gone` until `resume()`.
   * @throws SandkitError `invalid_option` in debug mode (no API); SandboxError `sandbox_gone` when
   *   E2B no longer knows the sandbox (404), `sandbox_unavailable` for 401, 429 and other failures.
   */
  pause(): Promise<void>;
  /**
   * Resumes a paused sandbox (E2B `connect`) with the adapter's `timeoutMs` as its new lifetime.
   * @throws as {@link E2BSandboxHandle.pause}.
   */
  resume(): Promise<void>;
}

/** The E2B adapter: its handles carry E2B's lifetime controls. */
export interface E2BSandboxAdapter extends SandboxAdapter {
  create(options?: SandboxCreateOptions): Promise<E2BSandboxHandle>;
}

/**
 * Creates the E2B adapter.
 * @throws SandkitError `invalid_option` for bad options (for example `timeoutMs: 0`).
 * `create()` throws SandboxError `sandbox_start_failed` when E2B cannot start a sandbox.
 */
export function createE2BSandboxAdapter(options: E2BSandboxAdapterOptions = {}): E2BSandboxAdapter {
  const config = normalizeE2BOptions(options);
  return {
    name: 'e2b',
    async create() {
      const sandbox = await startE2BSandbox(
        config,
        config.template,
        config.timeoutMs,
        { 'sandkit.managed': 'true', ...config.metadata },
        e2bNetworkOptions(config.network),
      );
      return createE2BHandle(sandbox, config);
    },
  };
}

function createE2BHandle(initial: Sandbox, config: NormalizedE2BOptions): E2BSandboxHandle {
  let sandbox = initial;
  let destroyed = false;
  const live = (): Sandbox => {
    if (destroyed) {
      throw new SandboxError({
        code: SandkitErrorCode.sandboxDestroyed,
        message: 'this E2B sandbox was destroyed; acquire a new one',
      });
    }
    return sandbox;
  };
  const absolute = (path: string): string => posix.resolve(config.workdir, checkedPath(path));
  const logs = new OutputLogRetention(execDir);
  const staging = new E2BStagingFiles();
  const requireApi = (action: string): void => {
    if (config.debug) {
      throw new SandkitError({
        code: SandkitErrorCode.invalidOption,
        message: `cannot ${action} an E2B sandbox in debug mode (there is no E2B API); create the adapter without debug, with an apiKey`,
      });
    }
  };
  const client: SandboxClient = {
    exec: async (command, execOptions = {}) =>
      runE2BCommand(live(), command, execOptions, config, logs, staging.sweepScript()),
    readFile: async (path, readOptions = {}) =>
      readE2BFile(live(), absolute(path), fileRequest(config.fileRequestTimeoutMs, readOptions.signal)),
    writeFile: async (path, data, writeOptions = {}) =>
      writeE2BFile(
        live(),
        absolute(path),
        data,
        writeOptions,
        fileRequest(config.fileRequestTimeoutMs, writeOptions.signal),
        staging,
      ),
  };
  return {
    id: config.debug ? `e2b-debug-${randomUUID()}` : initial.sandboxId,
    client,
    workdir: config.workdir,
    get sandbox() {
      return sandbox;
    },
    async extendLifetime(ms: number) {
      if (!(Number.isFinite(ms) && ms > 0)) {
        throw new SandkitError({
          code: SandkitErrorCode.invalidOption,
          message: `extendLifetime: ms must be a positive number of milliseconds, got ${ms}`,
        });
      }
      const current = live();
      if (config.debug) return; // no API in debug mode: the SDK's setTimeout does nothing
      await current.setTimeout(ms).catch(async (error: unknown) => {
        throw await lifecycleError(current, error, 'extend the sandbox lifetime');
      });
    },
    async pause() {
      const current = live();
      requireApi('pause');
      await current.pause().catch(async (error: unknown) => {
        throw await lifecycleError(current, error, 'pause the sandbox');
      });
    },
    async resume() {
      const current = live();
      requireApi('resume');
      sandbox = await reconnectE2BSandbox(config, current, config.timeoutMs, 'resume the sandbox');
    },
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      // In debug mode kill() ends nothing and the sandbox lives on: sweep what abandoned writes
      // left (a real kill takes the whole sandbox, staging files too).
      if (config.debug) await sweepStaging(sandbox, staging);
      // kill() answers false for a sandbox E2B no longer knows (404): already gone is destroyed.
      await sandbox.kill().catch(async (error: unknown) => {
        throw await lifecycleError(sandbox, error, 'kill the sandbox');
      });
    },
  };
}

/**
 * Removes the staging files this client's abandoned writes left, when there are any to look for.
 * Best effort: a sandbox that cannot run the command has nothing this client could still remove.
 */
async function sweepStaging(sandbox: Sandbox, staging: E2BStagingFiles): Promise<void> {
  const sweep = staging.sweepScript();
  if (sweep === undefined) return;
  await sandbox.commands.run(sweep, { timeoutMs: 60_000 }).catch(() => undefined);
}

/** The SDK request options of one file call: the adapter's deadline, and the caller's abort when given. */
function fileRequest(requestTimeoutMs: number, signal: AbortSignal | undefined): E2BFileRequest {
  return signal === undefined ? { requestTimeoutMs } : { requestTimeoutMs, signal };
}
