import { rm } from 'node:fs/promises';
import { describeSandboxConformance } from '@sandkit/sandbox-adapters/conformance';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';

describeSandboxConformance(
  'local (bubblewrap)',
  () => createLocalSandboxAdapter({ isolation: 'bubblewrap' }),
  {
    faults: {
      // The sandbox directory removed behind the adapter's back.
      disappear: (handle) => rm(handle.workdir, { recursive: true, force: true }),
      // The exec server's IPC channel lives as long as the sandbox: there is no transport to end apart.
      endTransport: async () => undefined,
    },
  },
);
