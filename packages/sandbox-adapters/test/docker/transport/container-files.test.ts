/**
 * putFile (dockerode's putArchive with tar-stream's tar) against the real engine at DOCKER_HOST:
 * bytes, mode and owner as given; the engine's refusals as typed SandboxErrors.
 */
import { randomBytes } from 'node:crypto';
import type { SandboxHandle } from '@sandkit/core';
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putFile } from '../../../src/docker/transport/container-files.js';
import { connectDocker } from '../../../src/docker/transport/docker-client.js';
import { dockerFromEnvironment } from '../../../src/docker/transport/docker-connection.js';
import type { EngineContainer } from '../../../src/docker/transport/engine-container.js';
import { countManagedContainers, dockerTestImage } from '../docker-test-helpers.js';

const connection = dockerFromEnvironment(process.env.DOCKER_HOST);
let handle: SandboxHandle | undefined;
let target: EngineContainer;
const root = { mode: 0o644, uid: 0, gid: 0 };

beforeAll(async () => {
  handle = await createDockerSandboxAdapter({ image: dockerTestImage }).create();
  const docker = await connectDocker(connection);
  const id = (await handle.client.exec('cat /etc/hostname')).stdout.trim();
  target = { docker, container: docker.getContainer(id), connection };
}, 180_000);

afterAll(async () => {
  await handle?.destroy();
  expect(await countManagedContainers({ ownedByThisProcess: true })).toBe(0);
}, 180_000);

describe('putFile', () => {
  describe('when the directory exists', () => {
    it('extracts the file with its exact bytes, mode and owner', async () => {
      await handle?.client.exec('mkdir -p /workspace/put');
      const data = randomBytes(5 * 2 ** 20 + 3);
      await putFile(target, '/workspace/put', 'p.bin', data, { mode: 0o640, uid: 1000, gid: 1000 });
      const back = await handle?.client.readFile('put/p.bin');
      expect(back !== undefined && Buffer.from(back).equals(data)).toBe(true);
      const stat = await handle?.client.exec('stat -c "%a %u %g" /workspace/put/p.bin');
      expect(stat?.stdout.trim()).toBe('640 1000 1000');
    }, 60_000);
  });
  describe('when the directory is a file', () => {
    it('throws SandboxError not_directory and writes nothing', async () => {
      await handle?.client.writeFile('put/plain.txt', 'x');
      await expect(
        putFile(target, '/workspace/put/plain.txt', 'q.bin', Buffer.from('q'), root),
      ).rejects.toMatchObject({
        code: 'not_directory',
      });
      expect(Buffer.from((await handle?.client.readFile('put/plain.txt')) ?? []).toString()).toBe('x');
    }, 60_000);
  });
  describe('when the container is missing', () => {
    it('throws SandboxError sandbox_gone', async () => {
      const gone = { ...target, container: target.docker.getContainer('sandkit-no-such-container') };
      await expect(putFile(gone, '/tmp', 'g.bin', Buffer.from('g'), root)).rejects.toMatchObject({
        code: 'sandbox_gone',
      });
    });
  });
  describe('when the signal aborts or the engine is unreachable', () => {
    it('throws SandkitError aborted, or SandboxError sandbox_unavailable naming DOCKER_HOST', async () => {
      const controller = new AbortController();
      controller.abort(new Error('stop'));
      await expect(
        putFile(target, '/tmp', 'r.bin', Buffer.from('r'), { ...root, signal: controller.signal }),
      ).rejects.toMatchObject({ code: 'aborted' });
      const docker = await connectDocker({ socketPath: '/nonexistent/sandkit-nobody-listens.sock' });
      const unreachable = { ...target, docker, container: docker.getContainer(target.container.id) };
      await expect(putFile(unreachable, '/tmp', 'u.bin', Buffer.from('u'), root)).rejects.toMatchObject({
        code: 'sandbox_unavailable',
        message: expect.stringContaining('DOCKER_HOST'),
      });
    });
  });
});
