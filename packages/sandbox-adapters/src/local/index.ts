export { createLocalSandboxAdapter } from './local-sandbox-adapter.js';
export type { LocalIsolation, LocalSandboxAdapterOptions } from './local-sandbox-options.js';
export type { BubblewrapOptions } from './bubblewrap/bubblewrap-options.js';
export type { NetworkPolicy } from '../network/network-policy.js';
export { baseEnvironment } from '../exec-options/base-environment.js';
export {
  type RemoveLeftoverLocalSandboxesOptions,
  type RemoveLeftoverLocalSandboxesResult,
  removeLeftoverLocalSandboxes,
} from './local-leftovers.js';
