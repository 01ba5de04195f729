export { createLocalSandboxAdapter, type LocalSandboxAdapterOptions } from './local-sandbox-adapter.js';
export { baseEnvironment } from './local-exec.js';
