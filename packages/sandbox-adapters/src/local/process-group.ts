/**
 * Signals for whole process groups (POSIX `kill(-pgid, sig)`), tolerant of the race where the
 * group is already gone.
 * @module
 */

/**
 * Sends `signal` to every process of group `pgid`. Never throws: a group already gone (`ESRCH`)
 * or not ours (`EPERM`, a reused id) is reported as `false`.
 * @returns `true` when the signal was delivered to at least one process.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** `true` while any process of group `pgid` exists (zombies included). */
export function groupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0);
}
