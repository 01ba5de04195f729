/**
 * SIGINT/SIGTERM handlers that remove the containers this process started before it dies.
 *
 * Installed when the first container is registered and removed when the last one is destroyed,
 * so a process with no live sandbox keeps Node's default signal behaviour. After cleaning up, the
 * handler re-raises the signal when no other listener is left, so the process still ends.
 * (SIGKILL cannot be caught: `removeLeftoverSandboxes` and the container's bounded lifetime cover it.)
 * @module
 */
import type { Docker } from './transport/docker-client.js';

const live = new Map<string, Docker>();
let installed = false;
/** Bound on how long the handler waits for the engine before letting the process die. */
const cleanupBoundMs = 5000;

function onSignal(signal: NodeJS.Signals): void {
  uninstall();
  const removals = [...live.entries()].map(([id, docker]) =>
    docker
      .getContainer(id)
      .remove({ force: true })
      .then(
        () => live.delete(id),
        () => live.delete(id), // already gone or engine down: nothing more can be done while dying
      ),
  );
  const bound = new Promise((resolve) => setTimeout(resolve, cleanupBoundMs).unref());
  void Promise.race([Promise.all(removals), bound]).then(() => {
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  });
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
}

/** Records a container this process started (installs the handlers on the first one). */
export function trackContainer(id: string, docker: Docker): void {
  live.set(id, docker);
  install();
}

/** Forgets a destroyed container (removes the handlers after the last one). */
export function untrackContainer(id: string): void {
  live.delete(id);
  if (live.size === 0) uninstall();
}
