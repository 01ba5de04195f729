/**
 * C15: containers must not outlive a crashed or killed owner. Every container carries owner
 * labels; `removeLeftoverSandboxes` removes those whose owner is provably gone and keeps live
 * owners' and other hosts' containers; SIGTERM handlers remove the process's own containers; and
 * the main process is `sleep <max lifetime>`, so an orphan ends (and is auto-removed) by itself.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDockerSandboxAdapter, removeLeftoverSandboxes } from '@sandkit/sandbox-adapters/docker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countManagedContainers, dockerTestImage, testDocker } from './docker-test-helpers.js';

const adapterEntry = resolve(import.meta.dirname, '../../src/docker/index.ts');
let scratch = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'sandkit-c15-'));
  // A separate Node process that creates one sandbox, reports its id, and waits to be killed.
  await writeFile(
    join(scratch, 'owner.mts'),
    `import { createDockerSandboxAdapter } from ${JSON.stringify(adapterEntry)};
const handle = await createDockerSandboxAdapter({ image: ${JSON.stringify(dockerTestImage)} }).create();
process.stdout.write('READY ' + handle.id + '\\n');
setInterval(() => {}, 1000);
`,
  );
});

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rm(scratch, { recursive: true, force: true });
  expect(await countManagedContainers({ ownedByThisProcess: true })).toBe(0);
});

/** Starts the owner script; resolves with the child and its sandbox id once it is ready. */
function startOwner(): Promise<{ child: ChildProcess; sandboxId: string }> {
  const child = spawn(
    process.execPath,
    ['--conditions=@sandkit/source', '--import', 'tsx', join(scratch, 'owner.mts')],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: process.env,
    },
  );
  children.push(child);
  return new Promise((resolvePromise, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /READY (\S+)\n/.exec(out);
      if (match) resolvePromise({ child, sandboxId: match[1] as string });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code, signal) => reject(new Error(`owner exited early (${code ?? signal}): ${err}`)));
  });
}

async function containersOf(sandboxId: string): Promise<string[]> {
  const list = await testDocker().listContainers({
    all: true,
    filters: { label: [`sandkit.sandbox-id=${sandboxId}`] },
  });
  return list.map((info) => info.Id);
}

async function waitUntil(check: () => Promise<boolean>, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 250));
  }
  return check();
}

describe('removeLeftoverSandboxes', () => {
  it('C15: removes the container of a SIGKILLed owner and keeps a live owner’s', async () => {
    const [{ child, sandboxId }, live] = await Promise.all([
      startOwner(),
      createDockerSandboxAdapter({ image: dockerTestImage }).create(),
    ]);
    try {
      const [orphan] = await containersOf(sandboxId);
      expect(orphan).toBeDefined();
      const labels = (
        await testDocker()
          .getContainer(orphan as string)
          .inspect()
      ).Config.Labels;
      expect(labels).toMatchObject({
        'sandkit.managed': 'true',
        'sandkit.sandbox-id': sandboxId,
        'sandkit.owner-pid': String(child.pid),
      });
      expect(labels['sandkit.owner-start-time']).toMatch(/^\d+$/);
      expect(labels['sandkit.created-at']).toMatch(/^\d{4}-\d\d-\d\dT/);
      child.kill('SIGKILL');
      await new Promise((resolvePromise) => child.once('exit', resolvePromise));
      const result = await removeLeftoverSandboxes();
      expect(result.removed).toContain(orphan);
      expect(await containersOf(sandboxId)).toEqual([]);
      const [liveContainer] = await containersOf(live.id);
      expect(result.kept).toContain(liveContainer);
      expect((await live.client.exec('echo still here')).stdout).toBe('still here\n');
    } finally {
      await live.destroy();
    }
  }, 120_000);

  it('C15: keeps a container whose owner runs on another host, even with a dead-looking pid', async () => {
    const docker = testDocker();
    const container = await docker.createContainer({
      Image: dockerTestImage,
      Cmd: ['sleep', '120'],
      Labels: {
        'sandkit.managed': 'true',
        'sandkit.sandbox-id': 'docker-foreign-host',
        'sandkit.owner-pid': '999999',
        'sandkit.owner-start-time': '1',
        'sandkit.owner-host': 'some-other-host.example',
      },
      HostConfig: { AutoRemove: true, NetworkMode: 'none' },
    });
    try {
      expect((await removeLeftoverSandboxes()).kept).toContain(container.id);
      expect(await containersOf('docker-foreign-host')).toEqual([container.id]);
    } finally {
      await container.remove({ force: true });
    }
  }, 60_000);
});

describe('container lifetime and signal cleanup', () => {
  it('C15: the main process is sleep <max lifetime>, so an orphan ends and is auto-removed by itself', async () => {
    const handle = await createDockerSandboxAdapter({ image: dockerTestImage, maxLifetimeMs: 3000 }).create();
    const [id] = await containersOf(handle.id);
    const info = await testDocker()
      .getContainer(id as string)
      .inspect();
    expect(info.Config.Cmd).toContain('3');
    expect(info.HostConfig.AutoRemove).toBe(true);
    expect(await waitUntil(async () => (await containersOf(handle.id)).length === 0, 30_000)).toBe(true);
    await handle.destroy(); // already gone: a no-op
  }, 60_000);

  it('C15: SIGTERM to the owner removes the containers it started before it exits', async () => {
    const { child, sandboxId } = await startOwner();
    expect(await containersOf(sandboxId)).toHaveLength(1);
    const exited = new Promise<NodeJS.Signals | null>((resolvePromise) =>
      child.once('exit', (_code, signal) => resolvePromise(signal)),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe('SIGTERM');
    expect(await containersOf(sandboxId)).toEqual([]);
  }, 120_000);
});
