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

/** Containers (any state) labelled `sandkit.managed=true`, optionally only ours by sandbox id. */
export async function countManagedContainers(): Promise<number> {
  const list = await testDocker().listContainers({ all: true, filters: { label: ['sandkit.managed=true'] } });
  return list.length;
}
