export { createDockerSandboxAdapter } from './docker-sandbox-adapter.js';
export type { DockerConnectionOptions, DockerSandboxAdapterOptions } from './docker-sandbox-options.js';
export {
  type RemoveLeftoverSandboxesOptions,
  type RemoveLeftoverSandboxesResult,
  removeLeftoverSandboxes,
} from './remove-leftover-sandboxes.js';
export { sandkitLabel } from './docker-owner-labels.js';
