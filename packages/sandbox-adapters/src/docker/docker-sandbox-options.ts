/**
 * Options of the Docker adapter and their one-time normalisation.
 * @module
 */
import { posix } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { type NetworkPolicy, normalizeNetworkPolicy } from '../network/network-policy.js';
import type { DockerNetwork } from './docker-egress.js';
import {
  checkConnection,
  type DockerConnectionOptions,
  dockerFromEnvironment,
} from './transport/docker-connection.js';

export type { DockerConnectionOptions };

/** Options of {@link createDockerSandboxAdapter}. */
export interface DockerSandboxAdapterOptions {
  /** Image every sandbox starts from, for example `localhost/sandkit-sandbox:bookworm`. Never pulled. */
  image: string;
  /**
   * The engine. Works with Docker Engine and with Podman's Docker-compatible service.
   * @default parsed from `DOCKER_HOST` (`unix:///path` or `tcp://host:port`), else `/var/run/docker.sock`
   */
  docker?: DockerConnectionOptions;
  /** Absolute working directory of every sandbox (made if missing, owned by `user`). @default '/workspace' */
  workdir?: string;
  /** Environment of every command, on top of the non-interactive base (`NO_COLOR=1`, `TERM=dumb`, …). @default {} */
  env?: Record<string, string>;
  /** User (name or `uid[:gid]`) that runs every command. @default the image's user */
  user?: string;
  /** Memory limit in bytes. @default no limit */
  memoryBytes?: number;
  /** CPU quota in billionths of a CPU (1e9 = one CPU). @default no limit */
  nanoCpus?: number;
  /** Maximum number of processes in the container. @default no limit */
  pidsLimit?: number;
  /**
   * `'none'` (no network), `'all'` (the engine's default bridge; `'bridge'` says the same), an
   * allowlist `{ allow: [...] }` (an internal network whose only way out is an egress proxy on this
   * host: see docker-egress.ts), or the name of a network to join as it is.
   * @default 'none'
   */
  network?: NetworkPolicy | string;
  /** Extra container labels (keys starting with `sandkit.` are reserved). @default {} */
  labels?: Record<string, string>;
  /**
   * Lifetime of a container in ms: its main process is `sleep <seconds>`, so a container whose
   * owner died without cleaning up ends by itself (and is auto-removed). Rounded up to seconds.
   * @default 86_400_000 (24 h)
   */
  maxLifetimeMs?: number;
  /**
   * Run commands over a long-lived shell inside the container (about 4 ms each instead of
   * about 135 ms per engine exec). `false` forces one engine exec per command.
   * @default true
   */
  channel?: boolean;
}

/** {@link DockerSandboxAdapterOptions} with every default filled in. */
export interface NormalizedDockerOptions {
  image: string;
  docker: DockerConnectionOptions;
  workdir: string;
  env: Record<string, string>;
  user: string | undefined;
  memoryBytes: number | undefined;
  nanoCpus: number | undefined;
  pidsLimit: number | undefined;
  network: DockerNetwork;
  labels: Record<string, string>;
  maxLifetimeSeconds: number;
  channel: boolean;
  /** Channels kept per sandbox; a command finding all busy runs as a plain engine exec. */
  maxChannels: number;
  /** After SIGTERM, ms before SIGKILL when a command times out or is aborted. */
  killGraceMs: number;
}

const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Fills the defaults of {@link DockerSandboxAdapterOptions} once and rejects bad values.
 * @throws SandkitError `invalid_option` with a message naming the option and the value.
 */
export function normalizeDockerOptions(options: DockerSandboxAdapterOptions): NormalizedDockerOptions {
  if (typeof options.image !== 'string' || options.image.trim() === '') {
    throw invalid(`image must be a non-empty image reference, got ${JSON.stringify(options.image)}`);
  }
  const workdir = options.workdir ?? '/workspace';
  if (!workdir.startsWith('/')) throw invalid(`workdir must be an absolute path, got "${workdir}"`);
  const env = options.env ?? {};
  for (const name of Object.keys(env)) {
    if (!envName.test(name))
      throw invalid(`env name "${name}" is not a valid variable name ([A-Za-z_][A-Za-z0-9_]*)`);
  }
  const labels = options.labels ?? {};
  for (const key of Object.keys(labels)) {
    if (key.startsWith('sandkit.')) throw invalid(`label "${key}" uses the reserved prefix "sandkit."`);
  }
  const maxLifetimeMs = options.maxLifetimeMs ?? 86_400_000;
  if (!Number.isFinite(maxLifetimeMs) || maxLifetimeMs < 1000) {
    throw invalid(
      `maxLifetimeMs must be a finite number of milliseconds >= 1000, got ${options.maxLifetimeMs}`,
    );
  }
  return {
    image: options.image,
    docker:
      options.docker === undefined
        ? dockerFromEnvironment(process.env.DOCKER_HOST)
        : checkConnection(options.docker),
    workdir: posix.normalize(workdir),
    env: { ...env },
    user: options.user === '' ? undefined : options.user,
    memoryBytes: positiveInteger('memoryBytes', options.memoryBytes),
    nanoCpus: positiveInteger('nanoCpus', options.nanoCpus),
    pidsLimit: positiveInteger('pidsLimit', options.pidsLimit),
    network: dockerNetwork(options.network),
    labels: { ...labels },
    maxLifetimeSeconds: Math.ceil(maxLifetimeMs / 1000),
    channel: options.channel ?? true,
    maxChannels: 4,
    killGraceMs: 1000,
  };
}

function positiveInteger(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value <= 0)
    throw invalid(`${name} must be a positive integer, got ${value}`);
  return value;
}

function invalid(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}

/**
 * @throws SandkitError `invalid_option` for a bad allowlist (network-policy.ts) or an empty name.
 */
function dockerNetwork(network: NetworkPolicy | string | undefined): DockerNetwork {
  if (network === undefined || network === 'none') return { kind: 'mode', mode: 'none' };
  if (network === 'all' || network === 'bridge') return { kind: 'mode', mode: 'bridge' };
  if (typeof network === 'string') {
    if (network.trim() === '')
      throw invalid(`network must be 'none', 'all', { allow: [...] } or a network name, got ""`);
    return { kind: 'mode', mode: network };
  }
  const policy = normalizeNetworkPolicy(network);
  if (policy.kind !== 'allow') return { kind: 'mode', mode: policy.kind === 'none' ? 'none' : 'bridge' };
  return { kind: 'allow', policy };
}
