/**
 * `@sandkit/sandbox-adapters/serve`: the server of `sandkit serve`, which runs sandboxes on this
 * machine (or in this container) for the HTTP adapter (`@sandkit/sandbox-adapters/http`).
 * @module
 */
export { type SandboxServer, type SandboxServerOptions, startSandboxServer } from './sandbox-server.js';
