/**
 * Shared by the Docker adapter tests: the image, the engine at DOCKER_HOST, and a count of
 * containers labelled `sandkit.managed=true` (which must be 0 after the tests).
 */
import type { SandboxHandle } from '@sandkit/core';
import type { ConformanceFaults } from '@sandkit/sandbox-adapters/conformance';
import Docker from 'dockerode';
import { type EngineCommandResult, runEngineCommand } from '../../src/docker/transport/engine-exec.js';

/** Built by .ci/start-podman.sh (images/sandbox/build-debian-image.sh). */
export const dockerTestImage = process.env.SANDKIT_DOCKER_IMAGE ?? 'localhost/sandkit-sandbox:bookworm';

/** The engine at DOCKER_HOST (default /var/run/docker.sock), as dockerode reads it. */
export function testDocker(): Docker {
  return new Docker();
}

/**
 * Containers (any state) labelled `sandkit.managed=true`; with `ownedByThisProcess`, only those
 * whose owner label is this test process (other test files may run sandboxes at the same time).
 */
export async function countManagedContainers(
  options: { ownedByThisProcess?: boolean } = {},
): Promise<number> {
  const label = ['sandkit.managed=true'];
  if (options.ownedByThisProcess) label.push(`sandkit.owner-pid=${process.pid}`);
  const list = await testDocker().listContainers({ all: true, filters: { label } });
  return list.length;
}

/** The container of a sandbox, found by its `sandkit.sandbox-id` label. */
export async function sandboxContainer(handle: SandboxHandle): Promise<Docker.Container> {
  const [found] = await testDocker().listContainers({
    all: true,
    filters: { label: [`sandkit.sandbox-id=${handle.id}`] },
  });
  if (found === undefined) throw new Error(`no container is labelled sandkit.sandbox-id=${handle.id}`);
  return testDocker().getContainer(found.Id);
}

/** Runs `script` with `sh -c` as root in the sandbox's container (its own engine exec). */
export async function execAsRoot(handle: SandboxHandle, script: string): Promise<EngineCommandResult> {
  return runEngineCommand(testDocker(), await sandboxContainer(handle), ['sh', '-c', script], { user: '0' });
}

/**
 * Fault hooks for the conformance suite: the container removed behind the adapter's back; the
 * transport ended by SIGKILLing, from a separate engine exec, the capture wrappers that carry
 * commands (the channel's shell and plain-exec wrappers), as a vendor deadline kills its direct child.
 */
export const dockerFaults: ConformanceFaults = {
  async disappear(handle) {
    await (await sandboxContainer(handle)).remove({ force: true });
  },
  async endTransport(handle) {
    const exec = await (await sandboxContainer(handle)).exec({
      Cmd: [
        'sh',
        '-c',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
        'for f in /proc/[0-9]*/cmdline; do if grep -q -a -e "sk_inner=" "$f" 2>/dev/null; then p=${f%/cmdline}; kill -9 "${p#/proc/}" 2>/dev/null; fi; done; true',
      ],
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({});
    await new Promise<void>((resolve) => {
      stream.on('end', () => resolve());
      stream.resume();
    });
  },
};
