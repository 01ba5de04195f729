/**
 * Where the Docker Engine API listens, and the `DOCKER_HOST` forms it is read from.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/** Where the Docker Engine API listens: a unix socket, or a TCP host and port (plain HTTP). */
export type DockerConnectionOptions = { socketPath: string } | { host: string; port: number };

/**
 * Reads a `DOCKER_HOST` value: `unix:///path`, `tcp://host:port`, or absent (the default socket).
 * @throws SandkitError `invalid_option` for any other form.
 */
export function dockerFromEnvironment(value: string | undefined): DockerConnectionOptions {
  if (value === undefined || value === '') return { socketPath: '/var/run/docker.sock' };
  if (value.startsWith('unix://')) return checkConnection({ socketPath: value.slice('unix://'.length) });
  const tcp = /^tcp:\/\/([^:/]+):(\d+)\/?$/.exec(value);
  if (tcp) return { host: tcp[1] as string, port: Number(tcp[2]) };
  throw invalid(`DOCKER_HOST must look like unix:///path/to/socket or tcp://host:port, got "${value}"`);
}

/**
 * Checks a connection given in the options and returns a copy of it.
 * @throws SandkitError `invalid_option` for a relative socket path, or a missing host or a port outside 1..65535.
 */
export function checkConnection(docker: DockerConnectionOptions): DockerConnectionOptions {
  if ('socketPath' in docker) {
    if (!docker.socketPath.startsWith('/'))
      throw invalid(`docker.socketPath must be an absolute path, got "${docker.socketPath}"`);
    return { socketPath: docker.socketPath };
  }
  if (!docker.host || !Number.isInteger(docker.port) || docker.port <= 0 || docker.port > 65535) {
    throw invalid(
      `docker must be { socketPath } or { host, port } with a port in 1..65535, got ${JSON.stringify(docker)}`,
    );
  }
  return { host: docker.host, port: docker.port };
}

function invalid(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
