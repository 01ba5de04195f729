/**
 * Connects to a Docker Engine API (Docker Engine or Podman's Docker-compatible service) with
 * dockerode, an optional peer dependency loaded only when a Docker sandbox is used.
 * @module
 */
import { SandboxError, SandkitErrorCode } from '@sandkit/core';
import type Docker from 'dockerode';
import type { DockerConnectionOptions } from './docker-connection.js';

export type { Docker };

const clients = new Map<string, Promise<Docker>>();

/** Human form of a connection, for messages: `unix:///run/x.sock` or `tcp://host:2375`. */
export function describeConnection(connection: DockerConnectionOptions): string {
  return 'socketPath' in connection
    ? `unix://${connection.socketPath}`
    : `tcp://${connection.host}:${connection.port}`;
}

/**
 * Returns the (shared, per connection) dockerode client.
 * @throws SandboxError `sandbox_unavailable` when the `dockerode` package is not installed.
 */
export function connectDocker(connection: DockerConnectionOptions): Promise<Docker> {
  const key = describeConnection(connection);
  let client = clients.get(key);
  if (client === undefined) {
    client = loadDockerode().then((Dockerode) =>
      'socketPath' in connection
        ? new Dockerode({ socketPath: connection.socketPath })
        : new Dockerode({ host: connection.host, port: connection.port, protocol: 'http' }),
    );
    client.catch(() => clients.delete(key));
    clients.set(key, client);
  }
  return client;
}

/** The command that installs the Docker adapter's optional peer. */
export const dockerodeInstall = 'npm install dockerode@5';

async function loadDockerode(): Promise<typeof Docker> {
  try {
    const module = (await import('dockerode')) as { default: typeof Docker };
    return module.default;
  } catch (cause) {
    throw new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: `the Docker adapter needs "dockerode" (optional peer dependency, not installed): ${dockerodeInstall}`,
      cause,
    });
  }
}
