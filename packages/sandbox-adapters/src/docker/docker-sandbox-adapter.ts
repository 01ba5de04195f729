/**
 * The Docker adapter: one container per sandbox, driven through the Docker Engine API with
 * dockerode (Docker Engine or Podman's Docker-compatible service), never by parsing CLI output.
 * @module
 */
import type { SandboxAdapter } from '@sandkit/core';
import { connectDocker } from './transport/docker-client.js';
import { engineError } from './transport/docker-errors.js';
import { capabilitiesOf } from '../capabilities/capability-errors.js';
import { checkedSnapshotImage } from './docker-lifecycle.js';
import { createDockerSandbox } from './docker-sandbox.js';
import { type DockerSandboxAdapterOptions, normalizeDockerOptions } from './docker-sandbox-options.js';
import { removeLeftovers } from './remove-leftover-sandboxes.js';
import { SandkitErrorCode } from '@sandkit/core';

/**
 * Creates the Docker adapter (`name: 'docker'`).
 *
 * `create()` starts a container from `image` whose main process is `sleep <maxLifetime>` (with
 * AutoRemove), labelled `sandkit.managed=true` with its sandbox id, owner pid + start time, host
 * and creation time. The first `create()` first removes containers left by dead sandkit processes
 * ({@link removeLeftoverSandboxes}). SIGINT/SIGTERM handlers remove this process's containers.
 * Commands run in their own session (`setsid`) so timeouts kill their whole process group inside
 * the container; they go over a long-lived in-container shell unless `channel: false`.
 * Their output is captured in the container, in `/tmp/sandkit-exec/` (see
 * capture/capture-script.ts): only the head and tail of each stream cross the Engine API socket;
 * a result's `outputLog` names the whole log when a stream was cut, and the logs of the last 4 cut
 * commands are kept (removed with the container). Files move through the archive endpoints as
 * streams (large ones) or the channel (small ones).
 * Lifecycle (`capabilities`: pause, snapshot, fork; see docker-lifecycle.ts): `pause()`/`resume()`
 * freeze and thaw the container; `snapshot()` commits it to `localhost/sandkit-snapshot:<hex>`,
 * which `create({ fromSnapshot })` starts from; `fork(n)` commits once and starts n containers.
 * The image needs `/bin/sh`, `setsid` (util-linux), and coreutils (`cat`, `mv`, `stat`, `chmod`,
 * `head`, `tail`, `wc`, `base64`, `touch`).
 *
 * @throws SandkitError `invalid_option` for bad options (checked here, once).
 * @throws SandboxError `sandbox_start_failed` from `create()` when the engine is unreachable, the
 *   image is missing, or the container cannot start.
 */
export function createDockerSandboxAdapter(options: DockerSandboxAdapterOptions): SandboxAdapter {
  const normalized = normalizeDockerOptions(options);
  let leftovers: Promise<unknown> | undefined;
  return {
    name: 'docker',
    capabilities: capabilitiesOf('pause', 'snapshot', 'fork'),
    async create(createOptions = {}) {
      const options =
        createOptions.fromSnapshot === undefined
          ? normalized
          : { ...normalized, image: checkedSnapshotImage(createOptions.fromSnapshot) };
      let docker: Awaited<ReturnType<typeof connectDocker>>;
      try {
        docker = await connectDocker(normalized.docker);
        leftovers ??= removeLeftovers(docker, false);
        await leftovers;
      } catch (error) {
        leftovers = undefined;
        throw engineError(
          error,
          'cannot prepare the Docker engine for a new sandbox',
          SandkitErrorCode.sandboxStartFailed,
        );
      }
      return createDockerSandbox(docker, options, createOptions.signal);
    },
  };
}
