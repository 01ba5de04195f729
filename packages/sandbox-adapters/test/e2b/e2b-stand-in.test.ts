/**
 * The stand-in behaves as envd does (issue 13 item 1), checked through the real `e2b` SDK in debug
 * mode, with no adapter in between. Every case here failed against the earlier, kinder stand-in.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { CommandExitError, Sandbox, SandboxNotFoundError, TimeoutError } from 'e2b';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type E2BStandIn, startE2BStandIn } from '../../src/e2b-stand-in/index.js';

const asRoot = process.getuid?.() === 0;

let standIn: E2BStandIn;
let sandbox: Sandbox;
beforeEach(async () => {
  standIn = await startE2BStandIn();
  sandbox = await Sandbox.create({ debug: true, sandboxUrl: standIn.url });
});
afterEach(async () => {
  await standIn.close();
});

/** `true` while a process whose command line is exactly `text` (NULs as spaces) runs. */
async function running(text: string): Promise<boolean> {
  const result = await sandbox.commands.run(
    `for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f 2>/dev/null; echo; done | grep -c -x -F -e ${JSON.stringify(`${text} `)} || true`,
  );
  return result.stdout.trim() !== '0';
}

describe('startE2BStandIn', () => {
  describe('when a background child holds stdout', () => {
    it('ends the command stream only at pipe EOF (envd handler.go Wait)', async () => {
      const started = Date.now();
      const result = await sandbox.commands.run('sleep 2.5 & echo started', { timeoutMs: 20_000 });
      expect(result.stdout).toBe('started\n');
      expect(Date.now() - started).toBeGreaterThanOrEqual(2400);
    }, 30_000);
  });

  describe.skipIf(!asRoot)('when it runs as root (CI)', () => {
    it("runs commands as the template's user with HOME, USER and LOGNAME (envd handler.go New)", async () => {
      const result = await sandbox.commands.run('id -un; printf "%s %s %s\\n" "$HOME" "$USER" "$LOGNAME"');
      expect(result.stdout).toBe('user\n/home/user user user\n');
    });

    it('uploads as root and chowns to the user, so an upload lands where the user cannot write', async () => {
      const locked = `${standIn.root}/locked`;
      await mkdir(locked);
      await chmod(locked, 0o555);
      try {
        await sandbox.files.write(`${locked}/uploaded.txt`, 'x');
        const owner = await sandbox.commands.run(
          `stat -c %U ${locked}/uploaded.txt; touch ${locked}/by-user 2>&1 || true`,
        );
        expect(owner.stdout).toMatch(/^user\n.*Permission denied/s);
        await sandbox.files.write(`${standIn.root}/new/deeper/file.txt`, 'y');
        expect((await stat(`${standIn.root}/new/deeper`)).uid).toBe((await stat(standIn.root)).uid);
      } finally {
        await rm(locked, { recursive: true, force: true });
      }
    });
  });

  describe('when it builds the environment', () => {
    it("gives commands envd's PATH, HOME, USER, LOGNAME and E2B variables only, never the host's", async () => {
      process.env.SANDKIT_HOST_ONLY = 'leak';
      try {
        const result = await sandbox.commands.run('env', { envs: { FROM_CALL: 'yes' } });
        const names = result.stdout
          .split('\n')
          .filter((line) => line.includes('='))
          .map((line) => line.split('=')[0]);
        expect(names).not.toContain('SANDKIT_HOST_ONLY');
        expect(names).toEqual(
          expect.arrayContaining([
            'PATH',
            'HOME',
            'USER',
            'LOGNAME',
            'E2B_SANDBOX',
            'E2B_SANDBOX_ID',
            'FROM_CALL',
          ]),
        );
        const sandboxId = await sandbox.commands.run('printf %s "$E2B_SANDBOX_ID"');
        expect(sandboxId.stdout).toBe(standIn.sandboxId);
      } finally {
        delete process.env.SANDKIT_HOST_ONLY;
      }
    });
  });

  describe('when the Connect-Timeout-Ms deadline passes', () => {
    it('SIGKILLs the direct child only and ends the stream with deadline_exceeded (envd start.go)', async () => {
      const started = Date.now();
      const error = await sandbox.commands.run('sleep 41.5 & exec sleep 42.5', { timeoutMs: 1500 }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect(Date.now() - started).toBeLessThan(20_000); // not the 42.5 s of the command
      expect(await running('sleep 42.5')).toBe(false);
      expect(await running('sleep 41.5')).toBe(true); // its group was not touched
    }, 30_000);
  });

  describe('when SendSignal is called', () => {
    it('signals the pid only, so a child in its group survives (envd signal.go)', async () => {
      const handle = await sandbox.commands.run('sleep 43.5 & wait', { background: true, timeoutMs: 60_000 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await sandbox.commands.kill(handle.pid)).toBe(true);
      const end = await handle.wait().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(end).toBeInstanceOf(CommandExitError);
      expect(await running('sleep 43.5')).toBe(true);
    }, 30_000);

    it('accepts only SIGKILL and SIGTERM: another signal is unimplemented', async () => {
      const handle = await sandbox.commands.run('sleep 44.5', { background: true, timeoutMs: 60_000 });
      const response = await fetch(`${standIn.url}/process.Process/SendSignal`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ process: { pid: handle.pid }, signal: 'SIGNAL_SIGINT' }),
      });
      expect(response.status).toBe(501);
      expect(await response.json()).toMatchObject({ code: 'unimplemented' });
      expect(await running('sleep 44.5')).toBe(true);
      await sandbox.commands.kill(handle.pid);
    }, 30_000);
  });

  describe('when files are read and removed', () => {
    it('removes a file, or a directory with its contents, as root; a missing path is no error (envd remove.go)', async () => {
      const dir = `${standIn.root}/gone`;
      await mkdir(`${dir}/inner`, { recursive: true });
      await writeFile(`${dir}/inner/file.txt`, 'x');
      await writeFile(`${standIn.root}/single.txt`, 'y');
      await sandbox.files.remove(`${standIn.root}/single.txt`);
      await sandbox.files.remove(dir);
      await sandbox.files.remove(`${standIn.root}/never-there`);
      expect(await stat(`${standIn.root}/single.txt`).catch(() => 'missing')).toBe('missing');
      expect(await stat(dir).catch(() => 'missing')).toBe('missing');
    });

    it('sends a file whole when it is removed once the response has begun (envd download.go opens it first)', async () => {
      const bytes = randomBytes(8 * 2 ** 20);
      const path = `${standIn.root}/removed-while-read.bin`;
      await writeFile(path, bytes);
      const body = await sandbox.files.read(path, { format: 'stream' });
      await sandbox.files.remove(path);
      expect(await stat(path).catch(() => 'missing')).toBe('missing');
      const received = Buffer.from(await new Response(body).arrayBuffer());
      expect(received.equals(bytes)).toBe(true);
    }, 30_000);
  });

  describe('when the sandbox is gone', () => {
    it('answers 502 "The sandbox was not found" as E2B\'s proxy does, which the SDK maps per call', async () => {
      await standIn.disappear();
      const health = await fetch(`${standIn.url}/health`);
      expect(health.status).toBe(502);
      expect(await health.json()).toEqual({
        sandboxId: standIn.sandboxId,
        message: 'The sandbox was not found',
        code: 502,
      });
      await expect(sandbox.files.read('/etc/hostname')).rejects.toBeInstanceOf(TimeoutError);
      await expect(sandbox.commands.run('true')).rejects.toBeInstanceOf(SandboxNotFoundError);
      expect(await sandbox.isRunning()).toBe(false);
    });
  });
});
