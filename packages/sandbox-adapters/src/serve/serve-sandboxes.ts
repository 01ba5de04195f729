/**
 * The sandboxes one `sandkit serve` holds: each a local-adapter sandbox (a directory under the
 * server's root, commands in their own process groups, output captured there), known by its id.
 * @module
 */
import { type SandboxAdapter, SandboxError, type SandboxHandle, SandkitErrorCode } from '@sandkit/core';
import { createLocalSandboxAdapter } from '../local/local-sandbox-adapter.js';
import { ServeExecs } from './serve-execs.js';

/** One sandbox the server holds, with the runs it keeps for abort and result. */
export interface ServedSandbox {
  readonly handle: SandboxHandle;
  readonly execs: ServeExecs;
}

/** The registry of live sandboxes; every route looks its sandbox up here. */
export class ServeSandboxes {
  readonly #adapter: SandboxAdapter;
  readonly #live = new Map<string, ServedSandbox>();

  /** @param root directory under which each sandbox's directory is made */
  constructor(root: string | undefined) {
    this.#adapter = createLocalSandboxAdapter(root === undefined ? {} : { root });
  }

  /** Makes a new sandbox. @throws SandboxError `sandbox_start_failed` */
  async create(): Promise<ServedSandbox> {
    const handle = await this.#adapter.create();
    const served = { handle, execs: new ServeExecs() };
    this.#live.set(handle.id, served);
    return served;
  }

  /** The sandbox `id`. @throws SandboxError `sandbox_gone` when this server holds none of that id. */
  get(id: string): ServedSandbox {
    const served = this.#live.get(id);
    if (served === undefined) {
      throw new SandboxError({
        code: SandkitErrorCode.sandboxGone,
        message: `this server holds no sandbox ${id} (destroyed, or the server restarted); create a new sandbox`,
        details: { id },
      });
    }
    return served;
  }

  /** Destroys the sandbox `id` (its processes and directory). @throws as {@link ServeSandboxes.get} */
  async destroy(id: string): Promise<void> {
    const served = this.get(id);
    this.#live.delete(id);
    served.execs.abortAll();
    await served.handle.destroy();
  }

  /** Destroys every sandbox (server shutdown). */
  async destroyAll(): Promise<void> {
    await Promise.all([...this.#live.keys()].map((id) => this.destroy(id).catch(() => undefined)));
  }
}
