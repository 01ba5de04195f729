/**
 * The Docker adapter's lifecycle capabilities, on the engine's own calls:
 * - pause / resume: `POST /containers/{id}/pause` and `/unpause` (the cgroup freezer: processes
 *   stop, memory and files stay);
 * - snapshot: `POST /commit` of the container (paused while it commits) into an image
 *   `localhost/sandkit-snapshot:<hex>`, which `create({ fromSnapshot })` starts containers from;
 *   the image stays until you remove it (`docker rmi`);
 * - fork(n): a snapshot, then n containers from it.
 * There is no lifetime to extend: a container lives until destroyed (or `maxLifetimeSeconds`).
 * @module
 */
import { randomBytes } from 'node:crypto';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { Docker } from './transport/docker-client.js';
import { engineError } from './transport/docker-errors.js';

/** Repository of snapshot images. */
export const snapshotRepository = 'localhost/sandkit-snapshot';

/** Pauses the container. @throws SandboxError as `engineError` maps the engine's failure */
export async function pauseContainer(container: Docker.Container): Promise<void> {
  await container.pause().catch((error: unknown) => {
    throw engineError(error, `cannot pause container ${container.id.slice(0, 12)}`);
  });
}

/** Resumes a paused container. @throws as {@link pauseContainer} */
export async function resumeContainer(container: Docker.Container): Promise<void> {
  await container.unpause().catch((error: unknown) => {
    throw engineError(error, `cannot resume container ${container.id.slice(0, 12)}`);
  });
}

/** Commits the container to a new snapshot image; its reference. @throws as {@link pauseContainer} */
export async function snapshotContainer(container: Docker.Container): Promise<string> {
  const tag = randomBytes(8).toString('hex');
  await container.commit({ repo: snapshotRepository, tag, pause: true }).catch((error: unknown) => {
    throw engineError(error, `cannot commit container ${container.id.slice(0, 12)} to an image`);
  });
  return `${snapshotRepository}:${tag}`;
}

/** `id` when it names a snapshot image. @throws SandkitError `invalid_option` otherwise */
export function checkedSnapshotImage(id: string): string {
  if (!id.startsWith(`${snapshotRepository}:`)) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `fromSnapshot ${JSON.stringify(id)} is not a Docker adapter snapshot (${snapshotRepository}:<tag>); pass what handle.snapshot() returned`,
    });
  }
  return id;
}
