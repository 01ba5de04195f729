/**
 * The labels every sandkit container carries, and the test of whether the process that made a
 * container is provably gone (case C15).
 *
 * A container records its owner as host name + pid + the pid's start time (field 22 of
 * `/proc/<pid>/stat`, clock ticks since boot) + the kernel boot id. A pid alone is not enough: it
 * is reused after the owner dies.
 * @module
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Label keys written on every container. */
export const sandkitLabel = {
  managed: 'sandkit.managed',
  sandboxId: 'sandkit.sandbox-id',
  ownerPid: 'sandkit.owner-pid',
  ownerStartTime: 'sandkit.owner-start-time',
  ownerBootId: 'sandkit.owner-boot-id',
  ownerHost: 'sandkit.owner-host',
  createdAt: 'sandkit.created-at',
} as const;

/** Who owns a container. */
export interface OwnerIdentity {
  pid: number;
  /** Start time of `pid` in clock ticks since boot, or '' when /proc is unavailable. */
  startTime: string;
  bootId: string;
  host: string;
}

/** The identity of this process. */
export function currentOwner(): OwnerIdentity {
  return {
    pid: process.pid,
    startTime: processStartTime(process.pid) ?? '',
    bootId: bootId(),
    host: hostname(),
  };
}

/** Labels for a new container: the caller's labels plus sandkit's own (which win). */
export function sandboxLabels(sandboxId: string, extra: Record<string, string>): Record<string, string> {
  const owner = currentOwner();
  return {
    ...extra,
    [sandkitLabel.managed]: 'true',
    [sandkitLabel.sandboxId]: sandboxId,
    [sandkitLabel.ownerPid]: String(owner.pid),
    [sandkitLabel.ownerStartTime]: owner.startTime,
    [sandkitLabel.ownerBootId]: owner.bootId,
    [sandkitLabel.ownerHost]: owner.host,
    [sandkitLabel.createdAt]: new Date().toISOString(),
  };
}

/**
 * What is known of a container's owner: `'gone'` only when provable on this host (pid missing,
 * pid reused with another start time, or the machine rebooted); `'alive'`; `'other-host'`; or
 * `'unknown'` when the labels do not say enough.
 */
export function ownerState(labels: Record<string, string>): 'gone' | 'alive' | 'other-host' | 'unknown' {
  const host = labels[sandkitLabel.ownerHost];
  const pid = Number(labels[sandkitLabel.ownerPid]);
  const startTime = labels[sandkitLabel.ownerStartTime];
  if (host === undefined || !Number.isInteger(pid) || pid <= 0 || !startTime) return 'unknown';
  if (host !== hostname()) return 'other-host';
  const labelBoot = labels[sandkitLabel.ownerBootId];
  if (labelBoot && bootId() && labelBoot !== bootId()) return 'gone';
  const actual = processStartTime(pid);
  if (actual === undefined) return 'gone';
  return actual === startTime ? 'alive' : 'gone';
}

/** Start time (field 22 of /proc/<pid>/stat), or `undefined` when the process does not exist. */
export function processStartTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // no such process (or no /proc): treated as absent
  }
  // The command name (field 2) is in parentheses and may hold spaces: split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19]; // field 22 overall = index 19 after the state field (field 3)
}

let cachedBootId: string | undefined;
function bootId(): string {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      cachedBootId = ''; // not Linux: the boot check is skipped
    }
  }
  return cachedBootId;
}
