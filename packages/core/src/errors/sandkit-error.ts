/**
 * Every code a sandkit error can carry, grouped by who can act on it.
 *
 * - Tool codes: the model made a call it can fix (returned to it as a tool error result).
 * - Sandbox codes: the sandbox or its vendor failed; the operator must act (thrown).
 * - Argument codes: a programmer passed bad options to a sandkit function (thrown).
 */
export const SandkitErrorCode = {
  // tool call and tool result
  invalidArguments: 'invalid_arguments',
  invalidOutput: 'invalid_output',
  unknownTool: 'unknown_tool',
  invalidSchema: 'invalid_schema',
  // model-fixable tool failures
  notFound: 'not_found',
  notUnique: 'not_unique',
  noMatch: 'no_match',
  noOp: 'no_op',
  emptyOldText: 'empty_old_text',
  overlappingEdits: 'overlapping_edits',
  outsideRoot: 'outside_root',
  isDirectory: 'is_directory',
  notDirectory: 'not_directory',
  tooLarge: 'too_large',
  binaryFile: 'binary_file',
  revisionMismatch: 'revision_mismatch',
  invalidPattern: 'invalid_pattern',
  patchFailed: 'patch_failed',
  invalidPatch: 'invalid_patch',
  commandFailed: 'command_failed',
  unknownProcess: 'unknown_process',
  refused: 'refused',
  /** A write to a path the sandbox keeps read-only (`.git/hooks`, `.git/config`, shell rc files). */
  protectedPath: 'protected_path',
  aborted: 'aborted',
  timedOut: 'timed_out',
  /** The `publish` tool's publisher failed (upload refused, bucket missing, network): the message has its reason. */
  publishFailed: 'publish_failed',
  // the sandbox itself
  sandboxStartFailed: 'sandbox_start_failed',
  sandboxUnavailable: 'sandbox_unavailable',
  sandboxDestroyed: 'sandbox_destroyed',
  sandboxGone: 'sandbox_gone',
  sandboxExpired: 'sandbox_expired',
  /** The vendor refused a new sandbox for now (concurrency quota or request rate, HTTP 429); retry later. */
  sandboxRateLimited: 'sandbox_rate_limited',
  cwdNotFound: 'cwd_not_found',
  fileNotFound: 'file_not_found',
  exitStatusUnavailable: 'exit_status_unavailable',
  cannotStartCommand: 'cannot_start_command',
  poolExhausted: 'pool_exhausted',
  poolClosed: 'pool_closed',
  alreadyReleased: 'already_released',
  /** The adapter cannot enforce an option it was given (a network policy, an isolation mode); it refuses rather than ignore it. */
  capabilityUnsupported: 'capability_unsupported',
  // programmer errors
  invalidOption: 'invalid_option',
  invalidRecord: 'invalid_record',
  /** A tool call of an assistant turn has no result, or a result answers no call (providers reject the next request). */
  incompleteToolResults: 'incomplete_tool_results',
  internal: 'internal',
  /** The host could not write a result file (a full disk, a quota): free space and resume. */
  outputNotWritten: 'output_not_written',
} as const;

/** One of the values of {@link SandkitErrorCode}. */
export type SandkitErrorCodeValue = (typeof SandkitErrorCode)[keyof typeof SandkitErrorCode];

const marker = Symbol.for('sandkit.error');

/** Fields every sandkit error accepts. */
export interface SandkitErrorOptions {
  /** Human message that says what happened and what to do next. */
  message: string;
  /** Machine-readable code from {@link SandkitErrorCode}. */
  code: SandkitErrorCodeValue;
  /** The underlying error, when there is one. */
  cause?: unknown;
  /** Structured details (paths, counts, line numbers) for programs and logs. */
  details?: Record<string, unknown>;
}

/**
 * Base class of every error sandkit throws. Check with `SandkitError.isInstance(e)`, which works
 * across duplicate copies of the package (a `Symbol.for` marker, not `instanceof`).
 */
export class SandkitError extends Error {
  readonly [marker] = true;
  readonly code: SandkitErrorCodeValue;
  readonly details: Record<string, unknown>;

  constructor(options: SandkitErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SandkitError';
    this.code = options.code;
    this.details = options.details ?? {};
  }

  /** `true` for any sandkit error (or subclass), whichever copy of the package made it. */
  static isInstance(error: unknown): error is SandkitError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
