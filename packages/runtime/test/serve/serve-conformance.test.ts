import { describeSandboxConformance } from '@sandkit/sandbox-adapters/conformance';
import { createHttpSandboxAdapter } from '@sandkit/sandbox-adapters/http';
import { afterAll, beforeAll } from 'vitest';
import {
  type CuttingProxy,
  type RunningServe,
  serveFaults,
  startCuttingProxy,
  startServeProcess,
} from './serve-test-helpers.js';

// `sandkit serve` as a real process on this machine, reached through a proxy the fault cases cut;
// auth on (the adapter sends the server's token).
let serve: RunningServe;
let proxy: CuttingProxy;
beforeAll(async () => {
  serve = await startServeProcess();
  proxy = await startCuttingProxy(serve.url);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await serve?.stop();
});

describeSandboxConformance(
  'http (sandkit serve on the host)',
  () => createHttpSandboxAdapter({ baseURL: proxy.url, auth: { token: serve.token } }),
  {
    faults: {
      disappear: (handle) => serveFaults(serve, proxy).disappear?.(handle) ?? Promise.resolve(),
      endTransport: async () => proxy.cut(),
    },
  },
);
