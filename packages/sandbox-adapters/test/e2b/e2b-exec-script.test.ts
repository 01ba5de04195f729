/**
 * The E2B adapter's kill script, run by a real POSIX sh on this host against real processes: the
 * pgid race of issue 13 (a timeout that fires before the wrapper wrote the command's group id).
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { execBase, execDir, killScript } from '../../src/e2b/e2b-exec-script.js';

/** `true` while `pid` runs (a zombie not yet reaped by this process counts as ended). */
const alive = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
};

describe('killScript', () => {
  describe('when the timeout fires before the wrapper wrote the group id', () => {
    it('waits for the group id while the wrapper runs, then ends the whole group', async () => {
      const id = randomBytes(8).toString('hex');
      await mkdir(execDir, { recursive: true });
      const wrapper = spawn('sleep', ['30'], { stdio: 'ignore' });
      const command = spawn('env', [`SANDKIT_EXEC_ID=${id}`, 'sh', '-c', 'sleep 53.5 & wait'], {
        stdio: 'ignore',
        detached: true,
      });
      try {
        // The wrapper writes the group id only after the kill has started (the race).
        const late = setTimeout(() => void writeFile(`${execBase(id)}.pgid`, `${command.pid}\n`), 300);
        const { stdout } = await promisify(execFile)('sh', [
          '-c',
          killScript({ id, wrapperPid: wrapper.pid, graceMs: 200 }),
        ]);
        clearTimeout(late);
        expect(stdout.trim().split('\n').pop()).toBe('gone');
        expect(alive(command.pid as number)).toBe(false);
        const left = await promisify(execFile)('sh', [
          '-c',
          `grep -l -a -F -e 'SANDKIT_EXEC_ID=${id}' /proc/[0-9]*/environ 2>/dev/null | wc -l`,
        ]);
        expect(left.stdout.trim()).toBe('0');
      } finally {
        wrapper.kill('SIGKILL');
        if (command.pid !== undefined && alive(command.pid)) process.kill(-command.pid, 'SIGKILL');
        await rm(`${execBase(id)}.pgid`, { force: true });
      }
    }, 30_000);

    it('finds the command by its SANDKIT_EXEC_ID when no group id is ever written', async () => {
      const id = randomBytes(8).toString('hex');
      const command = spawn('env', [`SANDKIT_EXEC_ID=${id}`, 'setsid', 'sh', '-c', 'sleep 54.5 & wait'], {
        stdio: 'ignore',
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      const { stdout } = await promisify(execFile)('sh', [
        '-c',
        killScript({ id, wrapperPid: undefined, graceMs: 200 }),
      ]);
      expect(stdout.trim().split('\n').pop()).toBe('gone');
      expect(alive(command.pid as number)).toBe(false);
      const left = await promisify(execFile)('sh', [
        '-c',
        `grep -l -a -F -e 'SANDKIT_EXEC_ID=${id}' /proc/[0-9]*/environ 2>/dev/null | wc -l`,
      ]);
      expect(left.stdout.trim()).toBe('0');
    }, 30_000);
  });
});
