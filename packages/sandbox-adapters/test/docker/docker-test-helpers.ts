/**
 * Shared by the Docker adapter tests: the image, the engine at DOCKER_HOST, and a count of
 * containers labelled `sandkit.managed=true` (which must be 0 after the tests).
 */
import Docker from 'dockerode';

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
