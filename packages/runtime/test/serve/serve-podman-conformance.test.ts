import { describeSandboxConformance } from '@sandkit/sandbox-adapters/conformance';
import { createHttpSandboxAdapter } from '@sandkit/sandbox-adapters/http';
import { afterAll, beforeAll } from 'vitest';
import {
  type CuttingProxy,
  type RunningServe,
  serveFaults,
  startCuttingProxy,
  startServeContainer,
} from './serve-test-helpers.js';

// `sandkit serve` inside a Podman container (the engine at DOCKER_HOST; CI: Podman's service from
// scripts/setup.sh --docker), reached through a proxy the fault cases cut; auth on. An unreachable
// engine fails the beforeAll: this suite never skips.
let serve: RunningServe;
let proxy: CuttingProxy;
beforeAll(async () => {
  serve = await startServeContainer();
  proxy = await startCuttingProxy(serve.url);
}, 120_000);
afterAll(async () => {
  await proxy?.close();
  await serve?.stop();
}, 60_000);

describeSandboxConformance(
  'http (sandkit serve in a Podman container)',
  () => createHttpSandboxAdapter({ baseURL: proxy.url, auth: { token: serve.token } }),
  {
    timeoutScale: 2,
    faults: {
      disappear: (handle) => serveFaults(serve, proxy).disappear?.(handle) ?? Promise.resolve(),
      endTransport: async () => proxy.cut(),
    },
  },
);
