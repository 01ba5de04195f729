/**
 * The end of a command's output: a shell can exit while a background child still holds its pipes.
 * @module
 */
import type { Readable } from 'node:stream';

/**
 * Waits until both pipes closed or `graceMs` passed, then lets go of them (destroys our ends, so a
 * background child that keeps writing gets EPIPE instead of holding the call).
 */
export async function drainPipes(out: Readable, err: Readable, graceMs: number): Promise<void> {
  const closed = (stream: Readable) =>
    stream.closed
      ? Promise.resolve()
      : new Promise<void>((resolveClosed) => stream.once('close', () => resolveClosed()));
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all([closed(out), closed(err)]),
    new Promise<void>((resolveGrace) => {
      timer = setTimeout(resolveGrace, graceMs);
    }),
  ]);
  if (timer) clearTimeout(timer);
  out.destroy();
  err.destroy();
}
