/**
 * Real-world cases of the Docker adapter's exec, against the real engine at DOCKER_HOST:
 * C13 (exit codes from the engine, never a guessed 0), B19 (a timeout kills the whole process
 * group inside the container), B21 (stdin delivered with EOF; no stdin means EOF at once).
 */
import { SandboxError, type SandboxHandle } from '@sandkit/core';
import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Docker } from '../../src/docker/transport/docker-client.js';
import { exitPoll, readExitCode, runEngineCommand } from '../../src/docker/transport/engine-exec.js';
import { countManagedContainers, dockerTestImage, testDocker } from './docker-test-helpers.js';

const handles: Record<'channel' | 'plain' | 'user1000', SandboxHandle | undefined> = {
  channel: undefined,
  plain: undefined,
  user1000: undefined,
};
const sandbox = (name: keyof typeof handles): SandboxHandle => {
  const handle = handles[name];
  if (!handle) throw new Error(`sandbox ${name} was not created (see the beforeAll error)`);
  return handle;
};

beforeAll(async () => {
  [handles.channel, handles.plain, handles.user1000] = await Promise.all([
    createDockerSandboxAdapter({ image: dockerTestImage }).create(),
    createDockerSandboxAdapter({ image: dockerTestImage, channel: false }).create(),
    createDockerSandboxAdapter({ image: dockerTestImage, user: '1000' }).create(),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(handles).map((handle) => handle?.destroy()));
  expect(await countManagedContainers({ ownedByThisProcess: true })).toBe(0);
}, 180_000);

/** The container behind a handle, found by its sandbox-id label. */
async function containerOf(handle: SandboxHandle): Promise<Docker.Container> {
  const docker = testDocker();
  const [info] = await docker.listContainers({ filters: { label: [`sandkit.sandbox-id=${handle.id}`] } });
  if (!info) throw new Error(`no container labelled with sandbox id ${handle.id}`);
  return docker.getContainer(info.Id);
}

describe('C13: exit codes come from the command, never a guessed 0', () => {
  it('C13: returns 127, 126 and 3 for a missing command, a directory and exit 3 as user 1000', async () => {
    const client = sandbox('user1000').client;
    expect((await client.exec('id -u')).stdout).toBe('1000\n');
    const missing = await client.exec('no-such-cmd');
    expect(missing.exitCode).toBe(127);
    expect(missing.stderr).toMatch(/not found/);
    expect((await client.exec('/etc')).exitCode).toBe(126);
    expect((await client.exec('sh -c "exit 3"')).exitCode).toBe(3);
  }, 180_000);

  it('C13: returns 0 and the output for 200 commands run in parallel batches of 20', async () => {
    const client = sandbox('user1000').client;
    for (let batch = 0; batch < 10; batch++) {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => client.exec('echo hi; exit 0', { timeoutMs: 60_000 })),
      );
      for (const result of results)
        expect(result).toMatchObject({ exitCode: 0, stdout: 'hi\n', signal: null, timedOut: false });
    }
  }, 480_000);

  it('C13: reports the runtime failing to start argv0 as cannot_start_command, not as the command exiting', async () => {
    const container = await containerOf(sandbox('user1000'));
    for (const [argv0, exitCode] of [
      ['no-such-cmd', 127],
      ['/etc', 126],
    ] as const) {
      const error = await runEngineCommand(testDocker(), container, [argv0]).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(SandboxError.isInstance(error), String(error)).toBe(true);
      expect(error).toMatchObject({ code: 'cannot_start_command', details: { argv0, exitCode } });
      expect((error as Error).message).toContain(`cannot start \`${argv0}\``);
    }
    expect(await runEngineCommand(testDocker(), container, ['sh', '-c', 'exit 3'])).toMatchObject({
      exitCode: 3,
    });
  }, 180_000);

  it('C13: polls exec inspect and throws exit_status_unavailable when ExitCode stays null', async () => {
    // A fake exec: no real engine can be made to keep ExitCode null on demand.
    let calls = 0;
    const stuck = {
      inspect: async () => {
        calls++;
        return { Running: false, ExitCode: null };
      },
    } as unknown as Docker.Exec;
    const started = Date.now();
    const error = await readExitCode(stuck, 'a stuck exec').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'exit_status_unavailable' });
    expect(calls).toBe(exitPoll.attempts);
    expect(Date.now() - started).toBeGreaterThanOrEqual(exitPoll.attempts * exitPoll.delayMs * 0.9);
    let late = 0;
    const slow = {
      inspect: async () => (++late < 5 ? { Running: true, ExitCode: null } : { Running: false, ExitCode: 7 }),
    } as unknown as Docker.Exec;
    expect(await readExitCode(slow, 'a slow exec')).toBe(7);
  });
});

describe.each(['channel', 'plain'] as const)('exec over %s', (mode) => {
  it(`B19: a timeout kills a python3 loop and its shell inside the container (${mode})`, async () => {
    const client = sandbox(mode).client;
    const started = Date.now();
    const result = await client.exec(
      'python3 -c "import time\nprint(\'tick\', flush=True)\nwhile True: time.sleep(1)"',
      { timeoutMs: 2000 },
    );
    expect(result).toMatchObject({ timedOut: true, exitCode: null, stdout: 'tick\n' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1950);
    const deadline = Date.now() + 10_000;
    // `[e]` keeps pgrep from matching its own shell's command line, which holds the pattern.
    const pgrep = 'pgrep -f "while Tru[e]"';
    let left = await client.exec(pgrep);
    while (left.exitCode === 0 && Date.now() < deadline) left = await client.exec(pgrep);
    expect(left, 'pgrep still finds the loop').toMatchObject({ exitCode: 1, stdout: '' });
  }, 180_000);

  it(`B21: stdin is delivered with EOF, and no stdin means EOF at once (${mode})`, async () => {
    const client = sandbox(mode).client;
    const counted = await client.exec('wc -l', { stdin: 'a\nb\n', timeoutMs: 20_000 });
    expect(counted).toMatchObject({ exitCode: 0, timedOut: false });
    expect(counted.stdout.trim()).toBe('2');
    const cat = await client.exec('cat', { timeoutMs: 20_000 });
    expect(cat).toMatchObject({ exitCode: 0, stdout: '', timedOut: false });
    const leftover = await client.exec('ls -A /tmp | grep -c "^.sandkit-in-" || true');
    expect(leftover.stdout.trim()).toBe('0');
  }, 180_000);
});
