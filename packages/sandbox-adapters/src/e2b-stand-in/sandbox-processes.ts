/**
 * Every process of one stand-in sandbox, found by the `E2B_SANDBOX_ID` variable that envd puts in
 * every command's environment (envd `internal/host/mmds.go`). A real sandbox is a VM whose end
 * ends all its processes; on a shared host the stand-in finds them this way, even those that
 * left their process group or session.
 * @module
 */
import { readdir, readFile } from 'node:fs/promises';

/** Pids of live processes whose environment holds `E2B_SANDBOX_ID=<sandboxId>`. */
export async function sandboxProcesses(sandboxId: string): Promise<number[]> {
  const needle = Buffer.from(`\0E2B_SANDBOX_ID=${sandboxId}\0`);
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const environ = await readFile(`/proc/${name}/environ`).catch(() => undefined);
    if (environ === undefined) continue;
    if (Buffer.concat([Buffer.from([0]), environ]).includes(needle)) pids.push(Number(name));
  }
  return pids;
}

/** Sends `signal` to every process of the sandbox; one that is already gone is skipped. */
export async function signalSandboxProcesses(sandboxId: string, signal: NodeJS.Signals): Promise<number> {
  const pids = await sandboxProcesses(sandboxId);
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error; // ESRCH: exited meanwhile
    }
  }
  return pids.length;
}
