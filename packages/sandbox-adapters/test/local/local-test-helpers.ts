import { readdir, readFile } from 'node:fs/promises';

/** Pids of host processes whose command line contains `marker` (read from /proc, no pgrep). */
export async function hostProcessesWith(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(marker)) pids.push(Number(entry));
  }
  return pids;
}

/** Polls {@link hostProcessesWith} until it is empty or `withinMs` passed. */
export async function waitForNoHostProcesses(marker: string, withinMs: number): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const left = await hostProcessesWith(marker);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls {@link hostProcessesWith} until `count` processes carry `marker` or `withinMs` passed (a background child may not have started when its exec returns). */
export async function waitForHostProcesses(
  marker: string,
  count: number,
  withinMs: number,
): Promise<number[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const found = await hostProcessesWith(marker);
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A marker unique to one test. */
export function uniqueMarker(): string {
  return `sandkitlocal${process.pid}x${Math.random().toString(36).slice(2, 10)}`;
}
