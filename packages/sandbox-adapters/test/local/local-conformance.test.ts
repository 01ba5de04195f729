import { rm } from 'node:fs/promises';
import { describeSandboxConformance } from '@sandkit/sandbox-adapters/conformance';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';

describeSandboxConformance('local', () => createLocalSandboxAdapter(), {
  faults: {
    // The sandbox directory removed behind the adapter's back.
    disappear: (handle) => rm(handle.workdir, { recursive: true, force: true }),
    // Commands are the adapter's own child processes: there is no transport to end.
    endTransport: async () => undefined,
  },
});
