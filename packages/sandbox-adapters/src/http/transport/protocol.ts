/**
 * The sandkit sandbox protocol over HTTP, version 1: the paths, headers and message shapes that
 * `sandkit serve` answers and the HTTP adapter sends. The written spec is `docs/http-protocol.md`;
 * this file is its machine-readable half, shared by both ends so they cannot drift.
 * @module
 */

/** Version of this protocol, answered by `GET /v1/version` as `protocol`. */
export const protocolVersion = 1;

/** Media type of a streamed exec answer: one JSON object per `\n`-terminated line (NDJSON). */
export const ndjsonMediaType = 'application/x-ndjson';

/** Paths, relative to the server's base URL (which may carry a path prefix of its own). */
export const protocolPaths = {
  health: 'health',
  version: 'v1/version',
  sandboxes: 'v1/sandboxes',
  sandbox: (id: string) => `v1/sandboxes/${encodeURIComponent(id)}`,
  exec: (id: string) => `v1/sandboxes/${encodeURIComponent(id)}/exec`,
  execAbort: (id: string, execId: string) =>
    `v1/sandboxes/${encodeURIComponent(id)}/exec/${encodeURIComponent(execId)}/abort`,
  execResult: (id: string, execId: string) =>
    `v1/sandboxes/${encodeURIComponent(id)}/exec/${encodeURIComponent(execId)}`,
  files: (id: string) => `v1/sandboxes/${encodeURIComponent(id)}/files`,
} as const;

/** `POST /v1/sandboxes` answers 201 with this. */
export interface SandboxCreated {
  /** The sandbox's id on this server. */
  id: string;
  /** Absolute path of its working directory. */
  workdir: string;
}

/** `GET /v1/version` answers with this. */
export interface ServerVersion {
  name: 'sandkit-serve';
  /** Version of the package that serves. */
  version: string;
  /** {@link protocolVersion} of the server. */
  protocol: number;
}

/** Body of `POST /v1/sandboxes/{id}/exec` (JSON). Absent fields take the contract's defaults. */
export interface ExecRequest {
  command: string;
  /** Client-chosen id (1–64 of `[A-Za-z0-9_-]`), unique per sandbox, naming the run for abort and result. */
  execId: string;
  cwd?: string;
  env?: Record<string, string>;
  /** Standard input, base64; absent = the command sees EOF at once. */
  stdinBase64?: string;
  timeoutMs?: number;
  maxOutputBytes?: number;
  shell?: 'sh' | 'bash';
  /** Which streams to send as they arrive (`stdout`/`stderr` lines); absent = none. */
  stream?: { stdout?: boolean; stderr?: boolean };
}

/** A line of the exec stream: output as it arrives, then exactly one `result` or `error` line. */
export type ExecStreamLine =
  | { stdout: string }
  | { stderr: string }
  | { result: import('@sandkit/core').ExecResult }
  | { error: ProtocolError };

/** Every non-2xx answer's body is `{ "error": ProtocolError }`, and so is an exec stream's `error` line. */
export interface ProtocolError {
  /** `SandboxError` when the sandbox failed, `SandkitError` for a bad request (`invalid_option`). */
  name: 'SandboxError' | 'SandkitError';
  /** A sandkit error code (`sandbox_gone`, `file_not_found`, `invalid_option`, `unauthorized`...). */
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Pattern an exec id must match. */
export const execIdPattern = /^[A-Za-z0-9_-]{1,64}$/;
