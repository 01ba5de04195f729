import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { describe, expect, it } from 'vitest';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('createLocalSandboxAdapter destroy()', () => {
  describe('when a command detached itself with setsid', () => {
    it('ends the detached process that still works in the sandbox', async () => {
      const handle = await createLocalSandboxAdapter().create();
      const started = await handle.client.exec('setsid sh -c "sleep 300" > /dev/null 2>&1 & echo $!');
      const pid = Number(started.stdout.trim());
      expect(pid).toBeGreaterThan(1);
      await new Promise((done) => setTimeout(done, 200));
      expect(alive(pid)).toBe(true);
      await handle.destroy();
      const deadline = Date.now() + 5000;
      while (alive(pid) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
      // a killed child may linger as a zombie until init reaps it; it must not be running
      const state = await import('node:fs/promises')
        .then((fs) => fs.readFile(`/proc/${pid}/stat`, 'latin1'))
        .then((stat) => stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3))
        .catch(() => 'gone');
      expect(['gone', 'Z', 'X']).toContain(state);
    });
  });
});
