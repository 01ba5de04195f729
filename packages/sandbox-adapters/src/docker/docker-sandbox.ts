/**
 * One Docker sandbox: its container (created, started, labelled, tracked for signal cleanup),
 * its SandboxClient, and `destroy()`.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { SandboxError, type SandboxHandle, SandkitErrorCode } from '@sandkit/core';
import { baseEnvironment } from '../exec-options/base-environment.js';
import { OutputLogRetention } from '../capture/output-log-retention.js';
import { ChannelPool } from './channel-pool.js';
import { type DockerEgress, prepareDockerEgress } from './docker-egress.js';
import type { Docker } from './transport/docker-client.js';
import { engineError, engineStatus } from './transport/docker-errors.js';
import { dockerExec, runInternalScript } from './docker-exec.js';
import { readDockerFile, writeDockerFile } from './docker-files.js';
import { sandboxLabels } from '../owner/owner-labels.js';
import type { NormalizedDockerOptions } from './docker-sandbox-options.js';
import { type DockerSandboxState, dockerOutputLogDir } from './docker-sandbox-state.js';
import { trackContainer, untrackContainer } from './docker-signal-cleanup.js';
import { runEngineCommand } from './transport/engine-exec.js';

/**
 * The container's main process: `sleep <lifetime>` under a shell that reaps orphaned processes
 * (a bare `sleep` as PID 1 would collect zombies) and exits on SIGTERM. When the sleep ends the
 * container stops and AutoRemove deletes it, so an orphaned sandbox cannot live forever (C15).
 */
const mainScript = 'trap "exit 0" TERM INT; sleep "$0" & wait';

/**
 * Creates, starts and wraps a container.
 * @throws SandboxError `sandbox_start_failed` when the image is missing or the container cannot start.
 */
export async function createDockerSandbox(
  docker: Docker,
  options: NormalizedDockerOptions,
  signal?: AbortSignal,
): Promise<SandboxHandle> {
  const id = `docker-${randomUUID()}`;
  const egress: DockerEgress = await prepareDockerEgress(docker, options.network, id);
  let container: Docker.Container;
  try {
    container = await docker.createContainer({
      Image: options.image,
      Cmd: ['/bin/sh', '-c', mainScript, String(options.maxLifetimeSeconds)],
      WorkingDir: options.workdir,
      Env: Object.entries({ ...baseEnvironment, ...egress.env, ...options.env }).map(
        ([name, value]) => `${name}=${value}`,
      ),
      ...(options.user === undefined ? {} : { User: options.user }),
      Labels: sandboxLabels(id, options.labels),
      Tty: false,
      OpenStdin: false,
      HostConfig: {
        AutoRemove: true,
        NetworkMode: egress.networkMode,
        ...(egress.dns === undefined ? {} : { Dns: egress.dns }),
        ...(options.memoryBytes === undefined ? {} : { Memory: options.memoryBytes }),
        ...(options.nanoCpus === undefined ? {} : { NanoCpus: options.nanoCpus }),
        ...(options.pidsLimit === undefined ? {} : { PidsLimit: options.pidsLimit }),
      },
    });
  } catch (error) {
    await egress.close().catch(() => undefined);
    if (engineStatus(error) === 404) {
      throw new SandboxError({
        code: SandkitErrorCode.sandboxStartFailed,
        message: `image ${options.image} not found on the engine; build it (images/sandbox/Dockerfile or images/sandbox/build-debian-image.sh) or pull it first`,
        cause: error,
      });
    }
    throw engineError(
      error,
      `cannot create a container from ${options.image}`,
      SandkitErrorCode.sandboxStartFailed,
    );
  }
  trackContainer(container.id, docker);
  const remove = async (): Promise<void> => {
    try {
      await container.remove({ force: true });
    } catch (error) {
      const status = engineStatus(error);
      if (status !== 404 && status !== 409)
        throw engineError(error, `cannot remove container ${container.id.slice(0, 12)}`);
    } finally {
      untrackContainer(container.id);
      await egress.close().catch(() => undefined);
    }
  };
  try {
    if (signal?.aborted)
      throw new SandboxError({ code: SandkitErrorCode.aborted, message: 'sandbox creation was aborted' });
    await container.start();
    await egress.started();
    if (options.user !== undefined) {
      // The engine makes a missing WorkingDir as root: hand it to the sandbox user.
      const setup = await runEngineCommand(
        docker,
        container,
        ['/bin/sh', '-c', 'mkdir -p -- "$0" && chown -- "$1" "$0"', options.workdir, options.user],
        { user: '0' },
      );
      if (setup.exitCode !== 0)
        throw new Error(`cannot give ${options.workdir} to user ${options.user}: ${setup.stderr.trim()}`);
    }
  } catch (error) {
    await remove().catch(() => undefined); // the start error is the one to report
    throw engineError(
      error,
      `cannot start a container from ${options.image}`,
      SandkitErrorCode.sandboxStartFailed,
    );
  }
  return wrapContainer(id, docker, container, options, remove);
}

function wrapContainer(
  id: string,
  docker: Docker,
  container: Docker.Container,
  options: NormalizedDockerOptions,
  remove: () => Promise<void>,
): SandboxHandle {
  const context = { docker, container, connection: options.docker };
  const pool = options.channel ? new ChannelPool(context, options.maxChannels) : undefined;
  let identity: Promise<{ uid: number; gid: number }> | undefined;
  const state: DockerSandboxState = {
    id,
    ...context,
    options,
    pool,
    destroyed: false,
    logs: new OutputLogRetention(dockerOutputLogDir),
    identity: () => {
      identity ??= runInternalScript(state, 'id -u; id -g', []).then((result) => {
        const [uid, gid] = result.stdout.toString('utf8').trim().split('\n').map(Number);
        if (result.exitCode !== 0 || !Number.isInteger(uid) || !Number.isInteger(gid)) {
          identity = undefined;
          throw new SandboxError({
            code: SandkitErrorCode.sandboxUnavailable,
            message: `cannot learn the sandbox user's uid/gid: ${result.stderr.trim()}`,
          });
        }
        return { uid: uid as number, gid: gid as number };
      });
      return identity;
    },
  };
  pool?.warm();
  let destroying: Promise<void> | undefined;
  return {
    id,
    workdir: options.workdir,
    client: {
      exec: (command, execOptions) => goneIfRemoved(container, dockerExec(state, command, execOptions)),
      readFile: (path, readOptions) =>
        goneIfRemoved(container, readDockerFile(state, path, readOptions?.signal)),
      writeFile: (path, data, writeOptions) =>
        goneIfRemoved(container, writeDockerFile(state, path, data, writeOptions)),
    },
    destroy() {
      destroying ??= (async () => {
        state.destroyed = true;
        pool?.closeAll();
        await remove();
      })();
      return destroying;
    },
  };
}

/**
 * A call that failed as `sandbox_unavailable` (a channel or stream cut mid-call, say) while the
 * container was being removed: when the engine no longer knows the container, the truth is
 * `sandbox_gone`, so the caller acquires a new sandbox instead of retrying this one.
 */
async function goneIfRemoved<T>(container: Docker.Container, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!SandboxError.isInstance(error) || error.code !== SandkitErrorCode.sandboxUnavailable) throw error;
    const status = await container.inspect().then(
      () => 200,
      (inspectError: unknown) => engineStatus(inspectError),
    );
    if (status !== 404) throw error;
    throw new SandboxError({
      code: SandkitErrorCode.sandboxGone,
      message: `the container no longer exists (${error.message}); create a new sandbox`,
      cause: error,
    });
  }
}
