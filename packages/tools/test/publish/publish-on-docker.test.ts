/**
 * The publish cases on the Docker adapter against the real engine at DOCKER_HOST (Podman's Docker
 * API in CI), image `localhost/sandkit-sandbox:bookworm` or SANDKIT_DOCKER_IMAGE: the file crosses
 * from the container through `dd` and the adapter's live output.
 */
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { describePublishCases } from './publish-cases.js';

const image = process.env.SANDKIT_DOCKER_IMAGE ?? 'localhost/sandkit-sandbox:bookworm';

describePublishCases('Docker', () => createDockerSandboxAdapter({ image }).create());
