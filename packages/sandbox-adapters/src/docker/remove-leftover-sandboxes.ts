/**
 * Removes containers that a crashed or killed sandkit process left behind (case C15).
 * @module
 */
import { connectDocker, type Docker } from './transport/docker-client.js';
import { engineError, engineStatus } from './transport/docker-errors.js';
import { ownerState, sandkitLabel } from '../owner/owner-labels.js';
import { type DockerConnectionOptions, dockerFromEnvironment } from './transport/docker-connection.js';

/** Options of {@link removeLeftoverSandboxes}. */
export interface RemoveLeftoverSandboxesOptions {
  /** The engine. @default from `DOCKER_HOST`, else `/var/run/docker.sock` */
  docker?: DockerConnectionOptions;
  /**
   * Remove every container labelled `sandkit.managed=true`, including those of live processes and
   * of other hosts. Only for an operator who knows no sandkit process is running.
   * @default false
   */
  all?: boolean;
  /** Only report what would be removed (in `removed`); remove nothing. @default false */
  dryRun?: boolean;
}

/** What {@link removeLeftoverSandboxes} did. */
export interface RemoveLeftoverSandboxesResult {
  /** Ids of the containers removed. */
  removed: string[];
  /** Ids of sandkit containers left alone (owner alive, on another host, or not provably gone). */
  kept: string[];
}

/**
 * Lists containers labelled `sandkit.managed=true` (running or not) and force-removes those whose
 * owner process is provably gone: same host, and its pid no longer exists or now belongs to a
 * process with another start time (or the machine rebooted). Containers of live owners and of
 * other hosts are kept. The Docker adapter calls this at its first `create()`.
 * @throws SandboxError `sandbox_unavailable` when the engine cannot be reached or listed.
 */
export async function removeLeftoverSandboxes(
  options: RemoveLeftoverSandboxesOptions = {},
): Promise<RemoveLeftoverSandboxesResult> {
  const docker = await connectDocker(options.docker ?? dockerFromEnvironment(process.env.DOCKER_HOST));
  return removeLeftovers(docker, options.all ?? false, options.dryRun ?? false);
}

/** {@link removeLeftoverSandboxes} on an already connected client. */
export async function removeLeftovers(
  docker: Docker,
  all: boolean,
  dryRun = false,
): Promise<RemoveLeftoverSandboxesResult> {
  let containers: Awaited<ReturnType<Docker['listContainers']>>;
  try {
    containers = await docker.listContainers({
      all: true,
      filters: { label: [`${sandkitLabel.managed}=true`] },
    });
  } catch (error) {
    throw engineError(error, 'cannot list sandkit containers');
  }
  const result: RemoveLeftoverSandboxesResult = { removed: [], kept: [] };
  await Promise.all(
    containers.map(async (info) => {
      if (!all && ownerState(info.Labels ?? {}) !== 'gone') {
        result.kept.push(info.Id);
        return;
      }
      if (dryRun) {
        result.removed.push(info.Id);
        return;
      }
      try {
        await docker.getContainer(info.Id).remove({ force: true });
      } catch (error) {
        // 404: already gone (AutoRemove won the race); 409: removal already in progress.
        const status = engineStatus(error);
        if (status !== 404 && status !== 409)
          throw engineError(error, `cannot remove leftover container ${info.Id}`);
      }
      result.removed.push(info.Id);
    }),
  );
  return result;
}
