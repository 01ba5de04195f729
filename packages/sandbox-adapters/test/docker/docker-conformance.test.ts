import { describeSandboxConformance } from '@sandkit/sandbox-adapters/conformance';
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { afterAll, expect } from 'vitest';
import { countManagedContainers, dockerFaults, dockerTestImage } from './docker-test-helpers.js';

// Runs against the real engine at DOCKER_HOST (CI: Podman's service from .ci/start-podman.sh).
// An unreachable engine makes the suite's beforeAll fail: it never skips.
describeSandboxConformance('docker (channel)', () => createDockerSandboxAdapter({ image: dockerTestImage }), {
  timeoutScale: 2,
  faults: dockerFaults,
});
describeSandboxConformance(
  'docker (plain exec)',
  () => createDockerSandboxAdapter({ image: dockerTestImage, channel: false }),
  {
    timeoutScale: 2,
    faults: dockerFaults,
  },
);

afterAll(async () => {
  expect(await countManagedContainers({ ownedByThisProcess: true })).toBe(0);
});
