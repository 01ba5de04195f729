/**
 * Signals for whole process groups (POSIX `kill(-pgid, sig)`), tolerant of the race where the
 * group is already gone.
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';

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

/**
 * The groups among `pgids` that still have a running (not zombie) member, read from
 * `/proc/<pid>/stat` on Linux. A killed process stays a zombie until its new parent reaps it, which
 * some container init processes do only about once a second, so `kill(-pgid, 0)` alone would report
 * a dead group as alive. Without `/proc`, falls back to {@link groupAlive}.
 */
export async function liveGroups(pgids: ReadonlySet<number>): Promise<Set<number>> {
  const entries = await readdir('/proc').catch(() => undefined);
  if (entries === undefined) return new Set([...pgids].filter(groupAlive));
  const live = new Set<number>();
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) return;
      const stat = await readFile(`/proc/${entry}/stat`, 'latin1').catch(() => '');
      // "pid (comm) state ppid pgrp ..." — comm may hold spaces and parentheses, so split after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pgrp = Number(fields[2]);
      if (fields[0] !== 'Z' && fields[0] !== 'X' && pgids.has(pgrp)) live.add(pgrp);
    }),
  );
  return live;
}

/** Polls until group `pgid` has no running member or `deadline` (a `performance.now()` time) passes. */
export async function waitForGroupExit(pgid: number, deadline: number): Promise<void> {
  const group = new Set([pgid]);
  while (performance.now() < deadline && (await liveGroups(group)).size > 0) {
    await new Promise((resolveTick) => setTimeout(resolveTick, 25));
  }
}

/**
 * Process groups that have a live member whose working directory is `dir` or below it, except
 * the host's own group. Finds processes that left the sandbox's groups with `setsid` (background
 * commands) but still work in the sandbox, so `destroy()` can end them too. Linux `/proc` only;
 * elsewhere returns an empty set.
 */
export async function groupsWorkingIn(dir: string): Promise<Set<number>> {
  const entries = await readdir('/proc').catch(() => undefined);
  const found = new Set<number>();
  if (entries === undefined) return found;
  const own = ownGroup(await readFile('/proc/self/stat', 'latin1').catch(() => ''));
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) return;
      const cwd = await readlink(`/proc/${entry}/cwd`).catch(() => undefined);
      if (cwd === undefined || (cwd !== dir && !cwd.startsWith(`${dir}/`))) return;
      const pgrp = ownGroup(await readFile(`/proc/${entry}/stat`, 'latin1').catch(() => ''));
      if (pgrp !== undefined && pgrp > 1 && pgrp !== own) found.add(pgrp);
    }),
  );
  return found;
}

/** The process-group id field of a `/proc/<pid>/stat` line, if it parses. */
function ownGroup(stat: string): number | undefined {
  const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  return Number.isInteger(pgrp) ? pgrp : undefined;
}

/**
 * The ids of live (not zombie) processes whose initial environment holds `name=value`, read from
 * `/proc/<pid>/environ`, except this process. An environment variable survives `setsid`, `chdir`
 * and double forks, so it finds daemons that left both the sandbox's groups and its directory.
 * A process that cleared its environment (`env -i`) is not found. Linux `/proc` only; elsewhere
 * returns an empty set.
 */
export async function processesTagged(name: string, value: string): Promise<Set<number>> {
  const entries = await readdir('/proc').catch(() => undefined);
  const found = new Set<number>();
  if (entries === undefined) return found;
  const tag = Buffer.from(`${name}=${value}\0`);
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) return;
      const pid = Number(entry);
      if (pid === process.pid) return;
      const environ = await readFile(`/proc/${entry}/environ`).catch(() => undefined);
      if (environ === undefined) return;
      const at = environ.indexOf(tag);
      if (at !== 0 && (at < 0 || environ[at - 1] !== 0)) return;
      const state = (await readFile(`/proc/${entry}/stat`, 'latin1').catch(() => '')).split(') ').at(-1)?.[0];
      if (state !== undefined && state !== 'Z' && state !== 'X') found.add(pid);
    }),
  );
  return found;
}

/**
 * SIGKILLs every process tagged `name=value` (see {@link processesTagged}) until none is left or
 * `deadline` (a `Date.now()` time) passes; a tagged process forked during a sweep is caught by the
 * next one. SIGKILL cannot be trapped, so `trap '' TERM` does not save a daemon.
 * @returns the ids of the processes that were signalled.
 */
export async function killTagged(name: string, value: string, deadline: number): Promise<Set<number>> {
  const killed = new Set<number>();
  for (;;) {
    const live = await processesTagged(name, value);
    if (live.size === 0 || Date.now() > deadline) return killed;
    for (const pid of live) {
      try {
        process.kill(pid, 'SIGKILL');
        killed.add(pid);
      } catch {
        // already gone
      }
    }
    await new Promise((done) => setTimeout(done, 20));
  }
}

/**
 * {@link killTagged} for a `process.on('exit')` hook, where nothing asynchronous runs: one
 * synchronous pass over `/proc` that SIGKILLs every live process tagged `name=value`. Never throws.
 */
export function killTaggedSync(name: string, value: string): void {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return;
  }
  const tag = Buffer.from(`${name}=${value}\0`);
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57 || Number(entry) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`);
      const at = environ.indexOf(tag);
      if (at === 0 || (at > 0 && environ[at - 1] === 0)) process.kill(Number(entry), 'SIGKILL');
    } catch {
      // gone, or not ours
    }
  }
}
