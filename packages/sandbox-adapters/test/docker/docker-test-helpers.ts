/**
 * Shared by the Docker adapter tests: the image, the engine at DOCKER_HOST, and a count of
 * containers labelled `sandkit.managed=true` (which must be 0 after the tests).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { SandboxHandle } from '@sandkit/core';
import type { ConformanceFaults } from '@sandkit/sandbox-adapters/conformance';
import Docker from 'dockerode';
import { dockerFromEnvironment } from '../../src/docker/docker-sandbox-options.js';
import { type EngineCommandResult, runEngineCommand } from '../../src/docker/engine-exec.js';

/** Built by .ci/start-podman.sh (images/sandbox/build-debian-image.sh). */
export const dockerTestImage = process.env.SANDKIT_DOCKER_IMAGE ?? 'localhost/sandkit-sandbox:bookworm';

/** The engine at DOCKER_HOST (default /var/run/docker.sock), as dockerode reads it. */
export function testDocker(): Docker {
  return new Docker();
}

/**
 * Containers (any state) labelled `sandkit.managed=true`; with `ownedByThisProcess`, only those
 * whose owner label is this test process (other test files may run sandboxes at the same time).
 */
export async function countManagedContainers(
  options: { ownedByThisProcess?: boolean } = {},
): Promise<number> {
  const label = ['sandkit.managed=true'];
  if (options.ownedByThisProcess) label.push(`sandkit.owner-pid=${process.pid}`);
  const list = await testDocker().listContainers({ all: true, filters: { label } });
  return list.length;
}

/** The container of a sandbox, found by its `sandkit.sandbox-id` label. */
export async function sandboxContainer(handle: SandboxHandle): Promise<Docker.Container> {
  const [found] = await testDocker().listContainers({
    all: true,
    filters: { label: [`sandkit.sandbox-id=${handle.id}`] },
  });
  if (found === undefined) throw new Error(`no container is labelled sandkit.sandbox-id=${handle.id}`);
  return testDocker().getContainer(found.Id);
}

/** Runs `script` with `sh -c` as root in the sandbox's container (its own engine exec). */
export async function execAsRoot(handle: SandboxHandle, script: string): Promise<EngineCommandResult> {
  return runEngineCommand(testDocker(), await sandboxContainer(handle), ['sh', '-c', script], { user: '0' });
}

/**
 * Fault hooks for the conformance suite: the container removed behind the adapter's back; the
 * transport ended by SIGKILLing, from a separate engine exec, the capture wrappers that carry
 * commands (the channel's shell and plain-exec wrappers), as a vendor deadline kills its direct child.
 */
export const dockerFaults: ConformanceFaults = {
  async disappear(handle) {
    await (await sandboxContainer(handle)).remove({ force: true });
  },
  async endTransport(handle) {
    const exec = await (await sandboxContainer(handle)).exec({
      Cmd: [
        'sh',
        '-c',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter expansion, not a template
        'for f in /proc/[0-9]*/cmdline; do if grep -q -a -e "sk_inner=" "$f" 2>/dev/null; then p=${f%/cmdline}; kill -9 "${p#/proc/}" 2>/dev/null; fi; done; true',
      ],
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({});
    await new Promise<void>((resolve) => {
      stream.on('end', () => resolve());
      stream.resume();
    });
  },
};

/** Hooks of {@link engineProxy}. */
export interface EngineProxyOptions {
  /** Awaited before a connection that opens with an archive PUT is passed on to the engine. */
  beforePut?: () => Promise<void>;
  /** Sees the start (300 bytes, latin1) of every chunk a client sends, requests on a kept-alive connection too. */
  watch?: (chunk: string) => void;
  /**
   * Milliseconds to hold each chunk the engine sends back on a connection that did not open with an
   * archive request (`… /archive?`): exec replies, the command channel's output. Read per chunk; 0
   * passes it at once. Order is kept.
   */
  replyHoldMs?: () => number;
  /** Called as a held chunk is passed on to the client. */
  released?: () => void;
}

/**
 * A unix socket at `path` that passes every connection through to the engine at DOCKER_HOST byte
 * for byte, with the hooks of `options` (for faults the engine cannot be made to produce on its
 * own at the right moment).
 */
export async function engineProxy(path: string, options: EngineProxyOptions = {}): Promise<Server> {
  const engine = dockerFromEnvironment(process.env.DOCKER_HOST);
  const server = createServer({ allowHalfOpen: true }, (client: Socket) => {
    const { watch } = options;
    if (watch) client.on('data', (chunk: Buffer) => watch(chunk.subarray(0, 300).toString('latin1')));
    client.once('data', (first: Buffer) => {
      client.pause();
      const head = first.subarray(0, 300).toString('latin1');
      const ready =
        /^PUT \S*\/archive\?/.test(head) && options.beforePut ? options.beforePut() : Promise.resolve();
      const archive = /^\w+ \S*\/archive\?/.test(head);
      void ready.then(() => {
        const upstream =
          'socketPath' in engine ? connect({ path: engine.socketPath }) : connect(engine.port, engine.host);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        upstream.write(first);
        client.pipe(upstream);
        if (archive || options.replyHoldMs === undefined) upstream.pipe(client);
        else holdReplies(upstream, client, options.replyHoldMs, options.released);
        client.resume();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return server;
}

/** Passes `from`'s data and end on to `to`, each held `holdMs()` ms, in order. */
function holdReplies(from: Socket, to: Socket, holdMs: () => number, released?: () => void): void {
  let last = Promise.resolve();
  const later = (step: () => void) => {
    const ms = holdMs();
    const previous = last;
    const due = new Promise<void>((resolve) => setTimeout(resolve, ms));
    last = Promise.all([previous, due]).then(() => {
      if (ms > 0) released?.();
      step();
    });
  };
  from.on('data', (chunk: Buffer) => later(() => to.write(chunk)));
  from.on('end', () => later(() => to.end()));
}
