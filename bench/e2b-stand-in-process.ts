/**
 * The envd stand-in in a process of its own, for benchmarks that measure the E2B client alone:
 * the bytes this process reads (the commands' pipes, the HTTP requests) and its memory are not
 * counted against the bench process that forks it.
 *
 * Started with `fork()` (it needs the IPC channel): it starts one stand-in sandbox, sends
 * `{ url, root, sandboxId }` (see {@link StandInReady}) to its parent, and on the message `'close'`
 * or when the parent goes away closes the stand-in (its processes killed, its root removed) and
 * exits.
 *
 * Run: forked by bench/exec-big-output.ts (`e2b` mode); not meant to be run by hand.
 */
import { startE2BStandIn } from '../packages/sandbox-adapters/src/e2b-stand-in/index.js';

/** The message the stand-in process sends its parent once it listens. */
export interface StandInReady {
  /** Base URL to pass as the adapter's `sandboxUrl` (debug mode). */
  url: string;
  /** Host directory of the sandbox, owned by its user: the adapter's workdir. */
  root: string;
  sandboxId: string;
}

if (process.send === undefined) throw new Error('e2b-stand-in-process.ts must be started with fork()');
const standIn = await startE2BStandIn();
let closing: Promise<void> | undefined;
const close = (): Promise<void> => {
  closing ??= standIn.close().finally(() => {
    if (process.connected) process.disconnect();
  });
  return closing;
};
process.on('message', (message) => {
  if (message === 'close') void close();
});
process.on('disconnect', () => void close());
const ready: StandInReady = { url: standIn.url, root: standIn.root, sandboxId: standIn.sandboxId };
process.send(ready);
