/**
 * The options of the local adapter, checked and filled once.
 * @module
 */
import { isAbsolute, normalize, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import {
  type NetworkPolicy,
  type NormalizedNetworkPolicy,
  networkPolicyUnsupported,
  normalizeNetworkPolicy,
} from '../network/network-policy.js';
import {
  type BubblewrapOptions,
  type NormalizedBubblewrapOptions,
  normalizeBubblewrapOptions,
} from './bubblewrap/bubblewrap-options.js';
import { defaultProtectedPaths } from '@sandkit/core';

/** How a local sandbox's commands and file operations are confined. */
export type LocalIsolation = 'none' | 'bubblewrap';

/** Options of `createLocalSandboxAdapter`. */
export interface LocalSandboxAdapterOptions {
  /**
   * Parent directory in which each sandbox's directory is made (with mkdtemp); created if missing.
   * @default os.tmpdir()
   */
  root?: string;
  /**
   * A directory whose contents are copied into every new sandbox (symlinks copied as symlinks,
   * modes kept).
   * @default none (an empty sandbox)
   */
  template?: string;
  /**
   * `'none'`: commands run as this user on this machine, with no isolation. `'bubblewrap'`: every
   * command and file operation runs inside one bubblewrap sandbox per sandbox (Linux, the `bwrap`
   * program): the host read-only (credentials hidden), only the workspace and `bubblewrap.writePaths`
   * writable, a private /tmp, a fresh /proc, a minimal /dev, own PID, IPC, UTS and network
   * namespaces, a new session, no capabilities, no new privileges, killed with this process.
   * @default 'none'
   */
  isolation?: LocalIsolation;
  /** What a bubblewrap sandbox sees and may write; only with `isolation: 'bubblewrap'`. */
  bubblewrap?: BubblewrapOptions;
  /**
   * Workspace-relative paths kept read-only by bubblewrap (commands and file operations), or
   * `false` for none. Only with `isolation: 'bubblewrap'` (the tools enforce their own list,
   * `createCodingTools({ protectedPaths })`, on any adapter).
   * @default defaultProtectedPaths (`.git/hooks`, `.git/config`, shell rc files)
   */
  protectedPaths?: readonly string[] | false;
  /**
   * Where commands may connect. `'all'` (no restriction) is the only policy without isolation;
   * bubblewrap enforces `'none'` (no network namespace access) and an allowlist (through an egress
   * proxy on this host, `HTTP_PROXY`/`HTTPS_PROXY` set for every command).
   * @default 'all'
   */
  network?: NetworkPolicy;
}

/** {@link LocalSandboxAdapterOptions} checked, defaults filled, paths absolute. */
export interface NormalizedLocalOptions {
  readonly root: string;
  readonly template: string | undefined;
  readonly isolation: LocalIsolation;
  readonly bubblewrap: NormalizedBubblewrapOptions | undefined;
  /** Workspace-relative, normalised. */
  readonly protectedPaths: readonly string[];
  readonly network: NormalizedNetworkPolicy;
}

/**
 * @throws SandkitError `invalid_option` for a bad root, template, isolation, path list or policy;
 *   `capability_unsupported` for a network policy other than `'all'` without isolation.
 */
export function normalizeLocalOptions(options: LocalSandboxAdapterOptions): NormalizedLocalOptions {
  for (const key of ['root', 'template'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      invalid(`${key} must be a non-empty directory path, got ${JSON.stringify(value)}`);
    }
  }
  const isolation = options.isolation ?? 'none';
  if (isolation !== 'none' && isolation !== 'bubblewrap') {
    invalid(`isolation must be 'none' or 'bubblewrap', got ${JSON.stringify(isolation)}`);
  }
  const network = normalizeNetworkPolicy(options.network);
  if (isolation === 'none') {
    if (options.bubblewrap !== undefined) invalid(`bubblewrap options need isolation: 'bubblewrap'`);
    if (options.protectedPaths !== undefined && options.protectedPaths !== false)
      invalid(
        `protectedPaths needs isolation: 'bubblewrap' (without it nothing stops a command; the tools' own protectedPaths still apply)`,
      );
    if (network.kind !== 'all') {
      throw networkPolicyUnsupported(
        'local',
        network,
        `without isolation commands use this machine's network; pass isolation: 'bubblewrap' (or use the Docker adapter)`,
      );
    }
  }
  return {
    root: resolve(options.root ?? tmpdir()),
    template: options.template === undefined ? undefined : resolve(options.template),
    isolation,
    bubblewrap: isolation === 'bubblewrap' ? normalizeBubblewrapOptions(options.bubblewrap) : undefined,
    protectedPaths: isolation === 'bubblewrap' ? protectedList(options.protectedPaths) : [],
    network,
  };
}

function protectedList(value: readonly string[] | false | undefined): string[] {
  if (value === false) return [];
  if (value === undefined) return [...defaultProtectedPaths];
  if (!Array.isArray(value) || value.some((path) => typeof path !== 'string' || path === '')) {
    invalid(
      `protectedPaths must be false or an array of workspace-relative paths, got ${JSON.stringify(value)}`,
    );
  }
  return value.map((path) => {
    const relative = normalize(path).replace(/\/+$/, '');
    if (isAbsolute(relative) || relative === '..' || relative.startsWith('../') || relative === '.') {
      invalid(
        `protectedPaths entries are relative to the workspace, such as '.git/hooks'; got ${JSON.stringify(path)}`,
      );
    }
    return relative;
  });
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
