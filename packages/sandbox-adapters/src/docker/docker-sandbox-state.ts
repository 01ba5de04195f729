/**
 * What one live Docker sandbox holds, shared by its exec, files and lifecycle code.
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import type { OutputLogRetention } from '../capture/output-log-retention.js';
import type { ChannelPool } from './channel-pool.js';
import type { EngineContainer } from './transport/engine-container.js';
import type { NormalizedDockerOptions } from './docker-sandbox-options.js';

/** One sandbox's state. */
export interface DockerSandboxState extends EngineContainer {
  readonly id: string;
  readonly options: NormalizedDockerOptions;
  /** `undefined` with `channel: false`. */
  readonly pool: ChannelPool | undefined;
  destroyed: boolean;
  /** Names the output logs of commands (in {@link dockerOutputLogDir}) and retires old ones. */
  readonly logs: OutputLogRetention;
  /** uid/gid of the sandbox user, looked up once on first use (owner of files put with putArchive). */
  identity(): Promise<{ uid: number; gid: number }>;
}

/**
 * Where commands' output logs live inside the container: outside the workdir, so they never show
 * up in the user's files or `git status`. Removed with the container.
 */
export const dockerOutputLogDir = '/tmp/sandkit-exec';

/** @throws SandboxError `sandbox_destroyed` after `destroy()`. */
export function assertLive(state: DockerSandboxState): void {
  if (state.destroyed) {
    throw new SandboxError({
      code: SandkitErrorCode.sandboxDestroyed,
      message: `docker sandbox ${state.id} was destroyed; create a new one`,
    });
  }
}
