/**
 * The wire of the HTTP adapter: requests to a sandkit-protocol server with Node's built-in `fetch`
 * (undici), the bearer token on each, and every failure mapped to a sandkit error. Knows nothing of
 * sandboxes beyond the protocol's paths.
 *
 * Error mapping (`docs/http-protocol.md`, "Errors"):
 * - a protocol error body `{ error: { name, code, message } }` becomes the same `SandboxError` or
 *   `SandkitError` (code kept);
 * - 401/403 without one: `sandbox_unavailable` (the token was refused); 429: `sandbox_rate_limited`;
 *   other statuses (a proxy's 502, 503, 504): `sandbox_unavailable`;
 * - a refused connection (`ECONNREFUSED`): `sandbox_gone`, nothing listens at the URL any more;
 *   other network failures (reset, DNS, timeout): `sandbox_unavailable`;
 * - the caller's abort: `SandkitError` `aborted`.
 * @module
 */
import { SandboxError, SandkitError, SandkitErrorCode, type SandkitErrorCodeValue } from '@sandkit/core';
import type { ProtocolError } from './protocol.js';

/** Options of {@link HttpTransport}. */
export interface HttpTransportOptions {
  /** Base URL of the server; a path prefix is kept (`https://host/sandbox/` + `v1/...`). */
  baseURL: string;
  /** Bearer token, or `undefined` to send none. */
  token: string | undefined;
  /** Extra headers on every request (a proxy's own auth, for example). */
  headers: Readonly<Record<string, string>>;
}

/** One request's parts. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path relative to the base URL (from `protocolPaths`). */
  path: string;
  query?: Record<string, string>;
  /** A JSON body. */
  json?: unknown;
  /** A raw body (sent as `application/octet-stream`). */
  body?: Uint8Array;
  signal?: AbortSignal;
  /**
   * `false` for a request that must not be sent twice (`POST /v1/sandboxes`). Others are resent
   * once when the connection closed before any answer (a kept-alive connection the server or a
   * proxy had just closed); the protocol makes each of them idempotent.
   * @default true
   */
  resend?: boolean;
  /** What the request does, for error messages ("read a file"). */
  action: string;
}

/** Sends protocol requests to one server. */
export class HttpTransport {
  readonly #base: URL;
  readonly #headers: Record<string, string>;

  constructor(options: HttpTransportOptions) {
    this.#base = new URL(options.baseURL.endsWith('/') ? options.baseURL : `${options.baseURL}/`);
    this.#headers = {
      ...options.headers,
      ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
    };
  }

  /** The server's base URL, as requests resolve against it. */
  get baseURL(): string {
    return this.#base.href;
  }

  /**
   * Sends `request`; resolves with a 2xx response whose body the caller reads.
   * @throws SandboxError / SandkitError as the module doc maps them.
   */
  async send(request: HttpRequest): Promise<Response> {
    const url = new URL(request.path, this.#base);
    for (const [name, value] of Object.entries(request.query ?? {})) url.searchParams.set(name, value);
    const headers: Record<string, string> = { ...this.#headers };
    let body: string | Uint8Array | undefined;
    if (request.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.json);
    } else if (request.body !== undefined) {
      headers['content-type'] = 'application/octet-stream';
      body = request.body;
    }
    const init: RequestInit = {
      method: request.method,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    };
    let response: Response;
    try {
      response = await fetch(url, init).catch((error: unknown) => {
        if (request.resend === false || request.signal?.aborted || !closedBeforeAnswer(error)) throw error;
        return fetch(url, init);
      });
    } catch (error) {
      throw networkError(error, request, this.#base);
    }
    if (response.ok) return response;
    throw await statusError(response, request);
  }
}

/** Maps a failure while a response body was read (a stream cut mid-way) the same way as `send`. */
export function bodyError(error: unknown, action: string, baseURL: string): SandkitError {
  return networkError(error, { action, signal: undefined }, new URL(baseURL));
}

/** A protocol error object as the sandkit error it names. */
export function fromProtocolError(error: ProtocolError): SandkitError {
  const options = {
    code: error.code as SandkitErrorCodeValue,
    message: error.message,
    ...(error.details === undefined ? {} : { details: error.details }),
  };
  return error.name === 'SandkitError' ? new SandkitError(options) : new SandboxError(options);
}

function networkError(
  error: unknown,
  request: Pick<HttpRequest, 'action' | 'signal'>,
  base: URL,
): SandkitError {
  if (SandkitError.isInstance(error)) return error;
  if (request.signal?.aborted) {
    return new SandkitError({
      code: SandkitErrorCode.aborted,
      message: `${request.action} was aborted by the caller`,
      cause: error,
    });
  }
  const code = causeCode(error);
  if (code === 'ECONNREFUSED') {
    return new SandboxError({
      code: SandkitErrorCode.sandboxGone,
      message: `cannot ${request.action}: nothing listens at ${base.href} any more (the machine behind it stopped); create a new sandbox`,
      cause: error,
      details: { baseURL: base.href },
    });
  }
  return new SandboxError({
    code: SandkitErrorCode.sandboxUnavailable,
    message: `cannot ${request.action}: the connection to ${base.href} failed (${code ?? (error as Error).message}); check the network and the server`,
    cause: error,
    details: { baseURL: base.href, ...(code === undefined ? {} : { errno: code }) },
  });
}

/** `true` when the connection closed before any byte of an answer (undici's "other side closed"). */
function closedBeforeAnswer(error: unknown): boolean {
  const code = causeCode(error);
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

/** The errno code (`ECONNREFUSED`...) in an error's cause chain (undici wraps it in `fetch failed`). */
function causeCode(error: unknown): string | undefined {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) return code;
    if (at instanceof AggregateError) {
      const inner = at.errors.map(causeCode).find((found) => found !== undefined);
      if (inner !== undefined) return inner;
    }
  }
  return undefined;
}

async function statusError(response: Response, request: HttpRequest): Promise<SandkitError> {
  const text = await response.text().catch(() => '');
  let parsed: { error?: ProtocolError } | undefined;
  try {
    parsed = JSON.parse(text) as { error?: ProtocolError };
  } catch {
    parsed = undefined; // not a protocol answer (a proxy's HTML page): mapped by status below
  }
  const error = parsed?.error;
  if (error !== undefined && typeof error.code === 'string' && error.code !== 'unauthorized')
    return fromProtocolError(error);
  const status = response.status;
  const code: SandkitErrorCodeValue =
    status === 429 ? SandkitErrorCode.sandboxRateLimited : SandkitErrorCode.sandboxUnavailable;
  const reason =
    status === 401 || status === 403
      ? `the server refused the bearer token (${error?.message ?? `HTTP ${status}`}); pass the server's token as auth.token`
      : status === 429
        ? 'the server is rate limiting (HTTP 429); retry later'
        : `the server answered HTTP ${status}${text === '' ? '' : `: ${text.slice(0, 200)}`}`;
  return new SandboxError({
    code,
    message: `cannot ${request.action}: ${reason}`,
    details: { status },
  });
}
