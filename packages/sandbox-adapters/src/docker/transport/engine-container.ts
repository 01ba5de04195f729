/**
 * One container as the transport reaches it.
 * @module
 */
import type { Docker } from './docker-client.js';
import type { DockerConnectionOptions } from './docker-connection.js';

/** A container on an engine: the dockerode client and handle, and the engine's address. */
export interface EngineContainer {
  readonly docker: Docker;
  readonly container: Docker.Container;
  /** Where the engine listens (the archive requests open sockets of their own to it). */
  readonly connection: DockerConnectionOptions;
}
