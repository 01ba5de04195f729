/**
 * `@sandkit/sandbox-adapters/e2b`: the E2B adapter. `e2b` and `@e2b/code-interpreter` are optional
 * peer dependencies: without them, importing this subpath throws a `SandboxError`
 * (`sandbox_unavailable`) that names the install command.
 * @module
 */
import { requireOptionalPeers } from '@sandkit/core';

await requireOptionalPeers({
  subpath: '@sandkit/sandbox-adapters/e2b',
  packages: ['e2b', '@e2b/code-interpreter'],
  install: 'npm install e2b@2 @e2b/code-interpreter@2',
  load: (name) => import(name),
});
const adapter = await import('./e2b-sandbox-adapter.js');

/** {@inheritDoc createE2BSandboxAdapter} */
export const createE2BSandboxAdapter: typeof adapter.createE2BSandboxAdapter =
  adapter.createE2BSandboxAdapter;
export type { E2BSandboxAdapter, E2BSandboxHandle } from './e2b-sandbox-adapter.js';
export type { E2BSandboxAdapterOptions } from './e2b-options.js';
export type { NetworkPolicy } from '../network/network-policy.js';
