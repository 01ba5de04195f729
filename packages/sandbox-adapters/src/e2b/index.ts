export type { E2BSandboxAdapterOptions } from './e2b-options.js';
export {
  createE2BSandboxAdapter,
  type E2BSandboxAdapter,
  type E2BSandboxHandle,
} from './e2b-sandbox-adapter.js';
