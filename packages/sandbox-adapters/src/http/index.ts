/**
 * `@sandkit/sandbox-adapters/http`: the adapter for sandboxes behind a URL (`sandkit serve` in a
 * container, a pod, a VM), speaking the protocol of `docs/http-protocol.md`. No optional peer: it
 * uses Node's built-in `fetch`.
 * @module
 */
export {
  createHttpSandboxAdapter,
  type HttpSandboxAdapter,
  type HttpSandboxHandle,
} from './http-sandbox-adapter.js';
export type { HttpSandboxAdapterOptions, HttpSandboxMachine } from './http-options.js';
