import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import {
  type NetworkPolicy,
  type NormalizedNetworkPolicy,
  normalizeNetworkPolicy,
} from '../network/network-policy.js';

/** Options of {@link createE2BSandboxAdapter}. */
export interface E2BSandboxAdapterOptions {
  /** E2B template name or id. @default the SDK's default template (`code-interpreter-v1` for @e2b/code-interpreter) */
  template?: string;
  /** API key. @default `E2B_API_KEY` from the environment */
  apiKey?: string;
  /**
   * Sandbox lifetime in ms from creation (E2B kills it then; extend with `extendLifetime`).
   * Must be positive: E2B treats 0 as its short default, not "unlimited" (case C16).
   * @default 300_000 (5 minutes)
   */
  timeoutMs?: number;
  /**
   * Deadline, in ms, given to the SDK for a command when the caller passes no `timeoutMs`, so the
   * SDK's own 60 s default never applies.
   * @default 3_600_000 (1 hour)
   */
  defaultCommandTimeoutMs?: number;
  /** Debug mode: no API call, the SDK talks to envd at `sandboxUrl` (or localhost:49983). @default false */
  debug?: boolean;
  /** Base URL of the sandbox daemon (envd) or of a proxy in front of it; used by tests with the stand-in. */
  sandboxUrl?: string;
  /** Base URL of E2B's REST API. @default the SDK's (`E2B_API_URL`, else `https://api.e2b.app`) */
  apiUrl?: string;
  /** Working directory inside the sandbox. @default '/home/user' */
  workdir?: string;
  /** Metadata attached to each sandbox. */
  metadata?: Record<string, string>;
  /** Environment variables set for every command. */
  envs?: Record<string, string>;
  /** Grace, in ms, between SIGTERM and SIGKILL when a command times out or is aborted. @default 1000 */
  killGraceMs?: number;
  /**
   * Deadline, in ms, of one `readFile` or `writeFile` request, the whole body included. The SDK's
   * own default (`requestTimeoutMs`, 60 s) also covers the body, so a large file over a slow link
   * would fail half-way; the adapter passes this instead.
   * @default 600_000 (10 minutes)
   */
  fileRequestTimeoutMs?: number;
  /**
   * Where the sandbox may connect, enforced by E2B itself at creation: `'none'` is
   * `allowInternetAccess: false`; an allowlist is `network: { allowOut: [...], denyOut: ['0.0.0.0/0'] }`
   * (E2B's egress filter: host names, `*.` wildcards, IPs and CIDR blocks).
   * @default 'all'
   */
  network?: NetworkPolicy;
}

/** {@link E2BSandboxAdapterOptions} with defaults filled in. */
export interface NormalizedE2BOptions {
  template: string | undefined;
  apiKey: string | undefined;
  timeoutMs: number;
  defaultCommandTimeoutMs: number;
  debug: boolean;
  sandboxUrl: string | undefined;
  apiUrl: string | undefined;
  workdir: string;
  metadata: Record<string, string>;
  envs: Record<string, string>;
  killGraceMs: number;
  fileRequestTimeoutMs: number;
  network: NormalizedNetworkPolicy;
}

/**
 * Fills the defaults of {@link E2BSandboxAdapterOptions} once.
 * @throws SandkitError `invalid_option` for a non-positive `timeoutMs` (0 included) or
 *   `fileRequestTimeoutMs`, a relative `workdir`, or a bad network policy (network-policy.ts).
 */
export function normalizeE2BOptions(options: E2BSandboxAdapterOptions): NormalizedE2BOptions {
  const timeoutMs = options.timeoutMs ?? 300_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw invalid(
      `timeoutMs must be a positive number of milliseconds (got ${options.timeoutMs}); E2B treats 0 as its short default, not as "no limit": pass your plan's maximum explicitly`,
    );
  }
  const defaultCommandTimeoutMs = options.defaultCommandTimeoutMs ?? 3_600_000;
  if (!Number.isFinite(defaultCommandTimeoutMs) || defaultCommandTimeoutMs <= 0) {
    throw invalid(
      `defaultCommandTimeoutMs must be a positive number of milliseconds, got ${options.defaultCommandTimeoutMs}`,
    );
  }
  const workdir = options.workdir ?? '/home/user';
  if (!workdir.startsWith('/')) throw invalid(`workdir must be an absolute path, got "${workdir}"`);
  const killGraceMs = options.killGraceMs ?? 1000;
  if (!(killGraceMs >= 0)) throw invalid(`killGraceMs must be >= 0, got ${options.killGraceMs}`);
  const fileRequestTimeoutMs = options.fileRequestTimeoutMs ?? 600_000;
  if (!Number.isFinite(fileRequestTimeoutMs) || fileRequestTimeoutMs <= 0) {
    throw invalid(
      `fileRequestTimeoutMs must be a positive number of milliseconds, got ${options.fileRequestTimeoutMs}`,
    );
  }
  return {
    template: options.template,
    apiKey: options.apiKey,
    timeoutMs,
    defaultCommandTimeoutMs,
    debug: options.debug ?? false,
    sandboxUrl: options.sandboxUrl,
    apiUrl: options.apiUrl,
    workdir,
    metadata: options.metadata ?? {},
    envs: options.envs ?? {},
    killGraceMs,
    fileRequestTimeoutMs,
    network: normalizeNetworkPolicy(options.network),
  };
}

function invalid(message: string): SandkitError {
  return new SandkitError({
    code: SandkitErrorCode.invalidOption,
    message: `createE2BSandboxAdapter: ${message}`,
  });
}

/** The SDK's create options that carry `policy` (none for `'all'`). */
export function e2bNetworkOptions(policy: NormalizedNetworkPolicy): {
  allowInternetAccess?: boolean;
  network?: { allowOut: string[]; denyOut: string[] };
} {
  if (policy.kind === 'all') return {};
  if (policy.kind === 'none') return { allowInternetAccess: false };
  return { network: { allowOut: [...policy.entries], denyOut: ['0.0.0.0/0'] } };
}
