/**
 * The processes one `sandkit mcp` session started on the host (local sandbox), found so that the
 * session can end them all when it stops (case R13). The local adapter's `destroy()` knows the groups
 * it spawned and the processes whose cwd is in its scratch directory, but background commands lead
 * their own session with their cwd in `--root`, and a command may `setsid` and `cd /` on top.
 *
 * Two ways in, both needed:
 * - every command gets {@link sessionMarkerName}`=<random>` in its environment; the environment is
 *   inherited through `setsid`, `cd` and double forks, and is read back from `/proc/<pid>/environ`
 *   (a process of ours, so readable);
 * - the background commands' pid files, `<root>/.sandkit/exec/bg-*.pid`, written since the session
 *   started: each names a group leader (pgid = pid), which still counts when the command cleared its
 *   environment.
 * A process that both clears its environment and leaves its group escapes; that is documented.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** The environment variable that tags every command of one session. */
export const sessionMarkerName = 'SANDKIT_MCP_SESSION';

/** The processes of one session; see the module docs. */
export interface SessionProcesses {
  /** Give this to every command the session starts (`ExecOptions.env`). */
  readonly env: Readonly<Record<string, string>>;
  /**
   * SIGKILLs every process of the session and each background command's group, in rounds until
   * none is left or `timeoutMs` (default 3000 ms) passed.
   * @returns how many processes were still alive when the last round ended (0 when all are gone).
   */
  killAll(timeoutMs?: number): Promise<number>;
}

/** Starts tracking the processes of a session whose workspace is the host directory `root`. */
export function trackSessionProcesses(root: string): SessionProcesses {
  const token = randomUUID();
  const marker = `${sessionMarkerName}=${token}`;
  const startedAt = Date.now();
  const execDir = join(root, '.sandkit', 'exec');

  const markedPids = async (): Promise<number[]> => {
    const entries = await readdir('/proc').catch(() => [] as string[]);
    const found: number[] = [];
    await Promise.all(
      entries
        .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
        .map(async (name) => {
          const environ = await readFile(`/proc/${name}/environ`).catch(() => null);
          if (environ?.toString('latin1').split('\0').includes(marker)) found.push(Number(name));
        }),
    );
    return found;
  };

  const backgroundLeaders = async (): Promise<number[]> => {
    const names = await readdir(execDir).catch(() => [] as string[]);
    const leaders: number[] = [];
    for (const name of names.filter((entry) => /^bg-[0-9a-f]+\.pid$/.test(entry))) {
      const file = join(execDir, name);
      const info = await stat(file).catch(() => null);
      // 1 s of slack for file systems with coarse timestamps
      if (info === null || info.mtimeMs < startedAt - 1000) continue;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isSafeInteger(pid) && pid > 1) leaders.push(pid);
    }
    return leaders;
  };

  return {
    env: { [sessionMarkerName]: token },
    async killAll(timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      const leaders = await backgroundLeaders();
      for (;;) {
        for (const pgid of leaders) signal(-pgid);
        const pids = (await markedPids()).filter((pid) => isAlive(pid));
        for (const pid of pids) signal(pid);
        const left = [...pids, ...leaders].filter((pid) => isAlive(pid)).length;
        if (left === 0 || Date.now() >= deadline) return left;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

function signal(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch {
    // gone already, or not ours
  }
}

/** True while `pid` exists and is not a zombie (from `/proc/<pid>/stat`). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
