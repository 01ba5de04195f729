/**
 * `@sandkit/sandbox-adapters/conformance`: the suite every adapter passes, written for vitest.
 * `vitest` is an optional peer dependency: without it, importing this subpath throws a
 * `SandboxError` (`sandbox_unavailable`) that names the install command.
 * @module
 */
import { requireOptionalPeers } from '@sandkit/core';

await requireOptionalPeers({
  subpath: '@sandkit/sandbox-adapters/conformance',
  packages: ['vitest'],
  install: 'npm install --save-dev vitest@4',
  load: (name) => import(name),
});
const suite = await import('./describe-sandbox-conformance.js');

/** {@inheritDoc describeSandboxConformance} */
export const describeSandboxConformance: typeof suite.describeSandboxConformance =
  suite.describeSandboxConformance;
export type { ConformanceFaults, SandboxConformanceOptions } from './conformance-context.js';
