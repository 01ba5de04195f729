export { createLocalSandboxAdapter, type LocalSandboxAdapterOptions } from './local-sandbox-adapter.js';
export { baseEnvironment } from '../exec-options/base-environment.js';
export {
  type RemoveLeftoverLocalSandboxesOptions,
  type RemoveLeftoverLocalSandboxesResult,
  removeLeftoverLocalSandboxes,
} from './local-leftovers.js';
