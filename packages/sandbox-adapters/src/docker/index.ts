/**
 * `@sandkit/sandbox-adapters/docker`: the Docker adapter (Docker Engine API; Podman's
 * Docker-compatible service works too). `dockerode` is an optional peer dependency: without it,
 * importing this subpath throws a `SandboxError` (`sandbox_unavailable`) that names the install
 * command, as `/e2b` does, so a missing package is found before any sandbox is asked for.
 * @module
 */
import { requireOptionalPeers } from '@sandkit/core';
import { dockerodeInstall } from './transport/docker-client.js';

await requireOptionalPeers({
  subpath: '@sandkit/sandbox-adapters/docker',
  packages: ['dockerode'],
  install: dockerodeInstall,
  load: (name) => import(name),
});

export { createDockerSandboxAdapter } from './docker-sandbox-adapter.js';
export type { DockerConnectionOptions, DockerSandboxAdapterOptions } from './docker-sandbox-options.js';
export {
  type RemoveLeftoverSandboxesOptions,
  type RemoveLeftoverSandboxesResult,
  removeLeftoverSandboxes,
} from './remove-leftover-sandboxes.js';
export { sandkitLabel } from '../owner/owner-labels.js';
