/**
 * The sandbox conformance suite for the adapter named by `SANDKIT_CONFORMANCE_SANDBOX`
 * (`local` | `docker` | `e2b`), run by `sandkit conformance` through vitest.
 * `SANDKIT_CONFORMANCE_IMAGE` is the Docker image or E2B template.
 * @module
 */
import type { SandboxAdapter } from '@sandkit/core';
import { describeSandboxConformance } from '@sandkit/sandbox-adapters/conformance';

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

describeSandboxConformance(kind, createAdapter, { timeoutScale: kind === 'local' ? 1 : 3 });
