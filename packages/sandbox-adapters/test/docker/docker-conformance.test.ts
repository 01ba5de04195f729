import { describeSandboxConformance } from '@sandkit/sandbox-adapters/conformance';
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { afterAll, expect } from 'vitest';
import { countManagedContainers, dockerFaults, dockerTestImage } from './docker-test-helpers.js';

// Runs against the real engine at DOCKER_HOST (CI: Podman's service from .ci/start-podman.sh).
// An unreachable engine makes the suite's beforeAll fail: it never skips.
// exec.timeout-detached (R14): Docker's timeout and abort signal only the command's process group,
// so a setsid daemon lives on in the container until destroy() removes it (which kills everything).
// Not fixed yet: the E2B adapter's SANDKIT_EXEC_ID sweep (e2b-exec-script.ts) is the way to port.
const skip = ['exec.timeout-detached'];
describeSandboxConformance('docker (channel)', () => createDockerSandboxAdapter({ image: dockerTestImage }), {
  timeoutScale: 2,
  faults: dockerFaults,
  skip,
});
describeSandboxConformance(
  'docker (plain exec)',
  () => createDockerSandboxAdapter({ image: dockerTestImage, channel: false }),
  {
    timeoutScale: 2,
    faults: dockerFaults,
    skip,
  },
);

afterAll(async () => {
  expect(await countManagedContainers({ ownedByThisProcess: true })).toBe(0);
});
