import { SandkitError, SandkitErrorCode, type SandboxCreateOptions } from '@sandkit/core';

/** What a `create` hook started: the server to talk to, and anything its `destroy` hook needs. */
export interface HttpSandboxMachine {
  /** Base URL of the server on that machine. @default the adapter's `baseURL` */
  baseURL?: string;
  /** Its bearer token. @default the adapter's `auth.token` */
  token?: string;
  /** Anything else of the caller's (a container id...), handed back to `destroy`. */
  [key: string]: unknown;
}

/** Options of {@link createHttpSandboxAdapter}. */
export interface HttpSandboxAdapterOptions {
  /**
   * Base URL of a `sandkit serve` (or any server of `docs/http-protocol.md`), for example
   * `http://10.0.0.5:8080/`. Required unless `create` returns one for each sandbox.
   */
  baseURL?: string;
  /**
   * How requests authenticate: `{ token }` sends `Authorization: Bearer <token>`; `'none'` sends
   * nothing (the server runs with `--no-auth`).
   * @default `{ token: process.env.SANDKIT_SERVE_TOKEN }`; neither set is an error
   */
  auth?: { token: string } | 'none';
  /** Extra headers on every request (a proxy's own auth). @default {} */
  headers?: Record<string, string>;
  /**
   * Starts the machine behind the URL (a container, a pod, a VM) before each sandbox is made, and
   * returns where its server listens. Absent: the server at `baseURL` is already running.
   */
  create?: (options: SandboxCreateOptions) => Promise<HttpSandboxMachine | undefined>;
  /** Stops what `create` started; called after the sandbox is destroyed (and when making it failed). */
  destroy?: (machine: HttpSandboxMachine) => Promise<void>;
}

/** {@link HttpSandboxAdapterOptions} with defaults filled. */
export interface NormalizedHttpOptions {
  baseURL: string | undefined;
  token: string | undefined;
  headers: Record<string, string>;
  create: HttpSandboxAdapterOptions['create'];
  destroy: HttpSandboxAdapterOptions['destroy'];
}

/**
 * Fills the defaults of {@link HttpSandboxAdapterOptions} once.
 * @throws SandkitError `invalid_option` for a malformed `baseURL`, neither `baseURL` nor `create`,
 *   or no token (neither `auth` nor `SANDKIT_SERVE_TOKEN`) without `auth: 'none'`.
 */
export function normalizeHttpOptions(options: HttpSandboxAdapterOptions): NormalizedHttpOptions {
  if (options.baseURL === undefined && options.create === undefined)
    throw invalid('give baseURL (where sandkit serve listens), or a create hook that returns one');
  if (options.baseURL !== undefined) {
    let url: URL;
    try {
      url = new URL(options.baseURL);
    } catch {
      throw invalid(`baseURL is not a URL: ${JSON.stringify(options.baseURL)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw invalid(`baseURL must be http: or https:, got ${url.protocol}`);
  }
  let token: string | undefined;
  if (options.auth === 'none') token = undefined;
  else {
    token = options.auth?.token ?? process.env.SANDKIT_SERVE_TOKEN;
    if (token === undefined || token === '')
      throw invalid(
        "no bearer token: pass auth: { token } or set SANDKIT_SERVE_TOKEN (auth: 'none' only for a server started with --no-auth)",
      );
  }
  return {
    baseURL: options.baseURL,
    token,
    headers: options.headers ?? {},
    create: options.create,
    destroy: options.destroy,
  };
}

function invalid(message: string): SandkitError {
  return new SandkitError({
    code: SandkitErrorCode.invalidOption,
    message: `createHttpSandboxAdapter: ${message}`,
  });
}
