/**
 * The sandbox conformance suite for the adapter named by `SANDKIT_CONFORMANCE_SANDBOX`
 * (`local` | `docker` | `e2b`), run by `sandkit conformance` through vitest.
 * `SANDKIT_CONFORMANCE_IMAGE` is the Docker image or E2B template.
 * @module
 */
import { rm } from 'node:fs/promises';
import type { SandboxAdapter } from '@sandkit/core';
import { type ConformanceFaults, describeSandboxConformance } from '@sandkit/sandbox-adapters/conformance';

const kind = process.env.SANDKIT_CONFORMANCE_SANDBOX ?? 'local';
const image = process.env.SANDKIT_CONFORMANCE_IMAGE;

async function createAdapter(): Promise<SandboxAdapter> {
  if (kind === 'local') return (await import('@sandkit/sandbox-adapters/local')).createLocalSandboxAdapter();
  if (kind === 'docker') {
    if (!image) throw new Error('sandkit conformance --sandbox docker needs --image');
    return (await import('@sandkit/sandbox-adapters/docker')).createDockerSandboxAdapter({ image });
  }
  if (kind === 'e2b')
    return (await import('@sandkit/sandbox-adapters/e2b')).createE2BSandboxAdapter({ template: image });
  throw new Error(`unknown sandbox ${kind}; use local, docker or e2b`);
}

/** Fault hooks where a real run can inject the fault (the others' cases are reported as skipped). */
const faults: Record<string, ConformanceFaults> = {
  local: {
    disappear: (handle) => rm(handle.workdir, { recursive: true, force: true }),
    endTransport: async () => undefined,
  },
  e2b: {
    // Killed through E2B's API behind the adapter's back.
    disappear: async (handle) => {
      await (handle as unknown as { sandbox: { kill(): Promise<boolean> } }).sandbox.kill();
    },
  },
};

describeSandboxConformance(kind, createAdapter, {
  timeoutScale: kind === 'local' ? 1 : 3,
  faults: faults[kind] ?? {},
});
