/**
 * Several sandboxes behind one `exec` tool: a fast local shell and a full container, say. The
 * model picks one with the `backend` argument; read_output and kill_process find a background
 * command's backend from its process id.
 * @module
 */
import { type SandboxClient, SandkitError, SandkitErrorCode } from '@sandkit/core';
import {
  type CodingToolOptions,
  normalizeCodingToolOptions,
  type ToolContext,
} from '../workspace/coding-tool-options.js';

/** One sandbox the model may run commands in. */
export interface ExecBackend {
  client: SandboxClient;
  /** Plain-language description shown to the model (what it is good for, what it has installed). */
  description: string;
  /** Workspace root in this backend (absolute). @default the tool options' `root`, else the sandbox's workdir */
  root?: string;
}

/** Options that add backends to the exec tools. */
export interface ExecBackendOptions {
  /**
   * Named sandboxes the model may choose with the `backend` argument. Names match
   * `^[a-z][a-z0-9_-]{0,31}$`. When given without `defaultBackend`, the factory's own client is
   * offered too, as `default`.
   * @default none: the tool has no `backend` argument
   */
  backends?: Record<string, ExecBackend>;
  /** Name of the backend used when the model gives none; must be a key of `backends`. @default 'default' (the factory's client) */
  defaultBackend?: string;
}

/** Backends with defaults filled: `names` in order, `byName`, `defaultName`. */
export interface ExecBackendSet {
  readonly names: readonly [string, ...string[]];
  readonly byName: ReadonlyMap<string, ExecBackend>;
  readonly defaultName: string;
  /** `true` when the caller configured backends (the tool then shows a `backend` argument). */
  readonly configured: boolean;
}

const backendName = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * Normalises {@link ExecBackendOptions} once.
 * @throws SandkitError `invalid_option` for a bad backend name, an empty `backends`, or a
 *   `defaultBackend` that is not one of them.
 */
export function normalizeExecBackends(client: SandboxClient, options: ExecBackendOptions): ExecBackendSet {
  const byName = new Map<string, ExecBackend>();
  const configured = options.backends !== undefined;
  if (options.backends !== undefined && Object.keys(options.backends).length === 0) {
    throw invalid('backends must name at least one backend, or be left out');
  }
  for (const [name, backend] of Object.entries(options.backends ?? {})) {
    if (!backendName.test(name)) throw invalid(`backend name "${name}" must match ${backendName.source}`);
    byName.set(name, backend);
  }
  let defaultName = options.defaultBackend;
  if (defaultName === undefined) {
    defaultName = 'default';
    if (!byName.has(defaultName)) {
      byName.set(defaultName, { client, description: 'the default sandbox' });
    }
  } else if (!byName.has(defaultName)) {
    throw invalid(
      `defaultBackend "${defaultName}" is not one of the backends (${[...byName.keys()].join(', ')})`,
    );
  }
  const names = [defaultName, ...[...byName.keys()].filter((name) => name !== defaultName)] as [
    string,
    ...string[],
  ];
  return { names, byName, defaultName, configured };
}

/** The lines listing each backend, for a tool description. */
export function describeBackends(set: ExecBackendSet): string {
  return set.names
    .map(
      (name) =>
        `- "${name}"${name === set.defaultName ? ' (default)' : ''}: ${set.byName.get(name)?.description ?? ''}`,
    )
    .join('\n');
}

function invalid(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}

/** One {@link ToolContext} per backend, each with its own root, built once. */
export function backendContexts(set: ExecBackendSet, options: CodingToolOptions): Map<string, ToolContext> {
  const contexts = new Map<string, ToolContext>();
  for (const [name, backend] of set.byName) {
    const root = backend.root ?? options.root;
    contexts.set(
      name,
      normalizeCodingToolOptions(backend.client, { ...options, ...(root === undefined ? {} : { root }) }),
    );
  }
  return contexts;
}
