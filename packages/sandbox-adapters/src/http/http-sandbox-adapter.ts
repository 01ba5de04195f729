/**
 * The HTTP adapter: each sandbox lives on a server of the sandkit sandbox protocol
 * (`docs/http-protocol.md`), such as `sandkit serve` inside a container, a pod or a VM, reached at
 * a URL with a bearer token. The caller's `create`/`destroy` hooks start and stop the machine
 * behind the URL, so any engine that runs a container can host sandboxes.
 *
 * Every contract promise is kept where the command runs (the server's local sandbox: process
 * groups, output captured in the sandbox, atomic writes); see `http-exec.ts` for abort and a lost
 * stream.
 * @module
 */
import {
  type SandboxAdapter,
  type SandboxClient,
  type SandboxCreateOptions,
  SandboxError,
  type SandboxHandle,
  SandkitError,
  SandkitErrorCode,
} from '@sandkit/core';
import {
  capabilitiesOf,
  capabilityUnsupported,
  unsupportedLifecycle,
} from '../capabilities/capability-errors.js';
import { runHttpCommand } from './http-exec.js';
import { readHttpFile, writeHttpFile } from './http-files.js';
import {
  type HttpSandboxAdapterOptions,
  type HttpSandboxMachine,
  type NormalizedHttpOptions,
  normalizeHttpOptions,
} from './http-options.js';
import { HttpTransport } from './transport/http-transport.js';
import { protocolPaths, type SandboxCreated } from './transport/protocol.js';

/** A sandbox on a protocol server: the common handle plus where it lives. */
export interface HttpSandboxHandle extends SandboxHandle {
  /** Base URL of the server that holds it. */
  readonly baseURL: string;
  /** What the `create` hook returned, or `undefined` without one. */
  readonly machine: HttpSandboxMachine | undefined;
}

/** The HTTP adapter. */
export interface HttpSandboxAdapter extends SandboxAdapter {
  create(options?: SandboxCreateOptions): Promise<HttpSandboxHandle>;
}

/**
 * Creates the HTTP adapter.
 * @throws SandkitError `invalid_option` for bad options (see `normalizeHttpOptions`).
 * `create()` throws SandboxError `sandbox_start_failed` when the hook or the server cannot make a
 * sandbox (`sandbox_rate_limited` for an HTTP 429), after stopping what the hook started.
 */
export function createHttpSandboxAdapter(options: HttpSandboxAdapterOptions): HttpSandboxAdapter {
  const config = normalizeHttpOptions(options);
  return {
    name: 'http',
    capabilities: capabilitiesOf(),
    async create(createOptions = {}) {
      if (createOptions.fromSnapshot !== undefined) throw capabilityUnsupported('http', 'snapshot');
      let machine: HttpSandboxMachine | undefined;
      try {
        machine = await config.create?.(createOptions);
        const transport = transportFor(config, machine);
        const response = await transport.send({
          method: 'POST',
          path: protocolPaths.sandboxes,
          action: 'create a sandbox',
          resend: false,
          ...(createOptions.signal === undefined ? {} : { signal: createOptions.signal }),
        });
        const created = (await response.json()) as SandboxCreated;
        return createHttpHandle(transport, created, machine, config);
      } catch (cause) {
        if (machine !== undefined) await config.destroy?.(machine).catch(() => undefined);
        const rateLimited =
          SandkitError.isInstance(cause) && cause.code === SandkitErrorCode.sandboxRateLimited;
        throw new SandboxError({
          code: rateLimited ? SandkitErrorCode.sandboxRateLimited : SandkitErrorCode.sandboxStartFailed,
          message: `cannot create an HTTP sandbox: ${(cause as Error).message}`,
          cause,
        });
      }
    },
  };
}

function transportFor(config: NormalizedHttpOptions, machine: HttpSandboxMachine | undefined): HttpTransport {
  const baseURL = machine?.baseURL ?? config.baseURL;
  if (baseURL === undefined) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: 'createHttpSandboxAdapter: the create hook returned no baseURL and the adapter has none',
    });
  }
  return new HttpTransport({ baseURL, token: machine?.token ?? config.token, headers: config.headers });
}

function createHttpHandle(
  transport: HttpTransport,
  created: SandboxCreated,
  machine: HttpSandboxMachine | undefined,
  config: NormalizedHttpOptions,
): HttpSandboxHandle {
  let destroying: Promise<void> | undefined;
  const live = (): void => {
    if (destroying !== undefined) {
      throw new SandboxError({
        code: SandkitErrorCode.sandboxDestroyed,
        message: `HTTP sandbox ${created.id} was destroyed; create a new one`,
      });
    }
  };
  const client: SandboxClient = {
    async exec(command, execOptions = {}) {
      live();
      return runHttpCommand(transport, created.id, command, execOptions);
    },
    async readFile(path, readOptions = {}) {
      live();
      return readHttpFile(transport, created.id, path, readOptions.signal);
    },
    async writeFile(path, data, writeOptions = {}) {
      live();
      return writeHttpFile(transport, created.id, path, data, writeOptions);
    },
  };
  return {
    id: created.id,
    client,
    workdir: created.workdir,
    baseURL: transport.baseURL,
    machine,
    ...unsupportedLifecycle('http'),
    destroy() {
      destroying ??= (async () => {
        await transport
          .send({ method: 'DELETE', path: protocolPaths.sandbox(created.id), action: 'destroy the sandbox' })
          .catch((error: unknown) => {
            // Already gone (the server forgot it, or stopped) is destroyed.
            if (SandkitError.isInstance(error) && error.code === SandkitErrorCode.sandboxGone) return;
            throw error;
          });
        if (machine !== undefined) await config.destroy?.(machine);
      })();
      return destroying;
    },
  };
}
