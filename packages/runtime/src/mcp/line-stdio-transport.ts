/**
 * The MCP stdio transport of `sandkit mcp`: one JSON-RPC message per line on stdin and stdout (MCP
 * 2025-06-18, "Transports: stdio"), with answers to what the SDK's `StdioServerTransport` drops:
 *
 * - A line over {@link defaultMaxMessageBytes} is not buffered: it is discarded as it streams in and
 *   answered with `-32600` (case R12). The SDK's `ReadBuffer` throws at 10 MiB instead, which closes
 *   its transport, and the server then exits 0 without a word.
 * - A line that is not JSON gets `-32700` (parse error) with `id: null`; valid JSON that is not a
 *   JSON-RPC 2.0 message (`{"jsonrpc":"2.0","id":78}`, `[1,2,3]`, a batch) gets `-32600` (invalid
 *   request), with the message's `id` when it has a usable one, else `null` (case R15). JSON-RPC 2.0
 *   specification, section 5 "Response object" and 5.1 "Error object"
 *   (https://www.jsonrpc.org/specification#error_object): "If there was an error in detecting the id
 *   in the Request object (e.g. Parse error/Invalid Request), it MUST be Null." MCP 2025-06-18 removed
 *   JSON-RPC batching, so a JSON array is an invalid request here. `params` that is not an object
 *   (JSON-RPC allows an array; MCP names its params) gets `-32602` (invalid params).
 * - Errors (a stdin error, a failed write) go to {@link LineStdioServerTransport.onerror}; the
 *   transport never closes itself.
 * @module
 */
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';

/**
 * The largest message line read, in bytes (32 MiB), newline excluded. Larger than the SDK's 10 MiB
 * so a `write_file` of its full 2 MiB content still fits when JSON escaping grows it several times;
 * the tools' own limits answer anything between.
 */
export const defaultMaxMessageBytes = 32 * 1024 * 1024;

/** How much of an oversized line is kept to find its `id` (64 KiB). */
const headBytes = 64 * 1024;

/** Options of {@link LineStdioServerTransport}. */
export interface LineStdioTransportOptions {
  /** Longest line accepted, in bytes, newline excluded. @default {@link defaultMaxMessageBytes} */
  maxMessageBytes?: number;
}

type RequestId = string | number | null;

/** A newline-framed JSON-RPC transport over a readable and a writable (stdin and stdout). */
export class LineStdioServerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxMessageBytes: number;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Set while the rest of an oversized line is being skipped. */
  private skipping = false;
  private started = false;
  private closed = false;

  /**
   * @param input where messages are read (normally `process.stdin`)
   * @param output where messages are written, one line each (normally the real fd 1)
   * @throws RangeError when `maxMessageBytes` is not a positive integer.
   */
  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    options: LineStdioTransportOptions = {},
  ) {
    this.maxMessageBytes = options.maxMessageBytes ?? defaultMaxMessageBytes;
    if (!Number.isSafeInteger(this.maxMessageBytes) || this.maxMessageBytes < 1)
      throw new RangeError(`maxMessageBytes must be a positive integer, got ${options.maxMessageBytes}`);
  }

  /**
   * Starts reading `input`. A last line without a newline is read when `input` ends.
   * @throws Error when called twice.
   */
  async start(): Promise<void> {
    if (this.started) throw new Error('LineStdioServerTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onInputError);
  }

  /** Writes `message` as one line; resolves once it is handed to the output. @throws the write's error. */
  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  /** Stops reading (pending lines are dropped) and calls `onclose` once. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onInputError);
    this.input.pause();
    this.chunks = [];
    this.size = 0;
    this.onclose?.();
  }

  private write(message: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      this.output.write(`${JSON.stringify(message)}\n`, (error) => (error ? reject(error) : resolve()));
    });
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    while (data.length > 0 && !this.closed) {
      const newline = data.indexOf(0x0a);
      const part = newline === -1 ? data : data.subarray(0, newline);
      this.take(part);
      if (newline === -1) return;
      this.endLine();
      data = data.subarray(newline + 1);
    }
  };

  private readonly onEnd = (): void => {
    if (this.size > 0 || this.skipping) this.endLine();
  };

  /** Adds bytes of the current line; past the limit, answers once and skips the rest of the line. */
  private take(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    if (this.size + part.length <= this.maxMessageBytes) {
      this.chunks.push(part);
      this.size += part.length;
      return;
    }
    const head = Buffer.concat([...this.chunks, part])
      .subarray(0, headBytes)
      .toString('utf8');
    this.chunks = [];
    this.size = 0;
    this.skipping = true;
    this.reject(
      leadingId(head),
      ErrorCode.InvalidRequest,
      `Invalid Request: the message is over sandkit mcp's limit of ${this.maxMessageBytes} bytes per line and was not read; send less per call (write_file takes 2 MiB of content at most: split a big file, or generate it with a command through exec)`,
    );
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      return;
    }
    const text = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (text.trim() === '') return;
    this.handleLine(text);
  }

  private handleLine(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.reject(
        null,
        ErrorCode.ParseError,
        `Parse error: the line is not JSON (${(error as Error).message}); send one complete JSON-RPC message per line`,
      );
      return;
    }
    if (Array.isArray(value)) {
      this.reject(
        null,
        ErrorCode.InvalidRequest,
        'Invalid Request: a JSON array (a JSON-RPC batch) is not accepted: MCP 2025-06-18 removed batching; send one message object per line',
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success && hasPositionalParams(value)) {
      // JSON-RPC 2.0 section 4.2 allows an array; MCP takes named params only
      this.reject(
        usableId(value),
        ErrorCode.InvalidParams,
        'Invalid params: MCP takes params as an object of named members, not an array or a scalar',
      );
      return;
    }
    if (!parsed.success) {
      this.reject(
        usableId(value),
        ErrorCode.InvalidRequest,
        'Invalid Request: a JSON-RPC 2.0 message is an object with "jsonrpc": "2.0" and either a string "method" (a request, with an "id", or a notification) or an "id" with a "result" or an "error" (a response)',
      );
      return;
    }
    this.onmessage?.(parsed.data);
  }

  private reject(id: RequestId, code: number, message: string): void {
    this.write({ jsonrpc: '2.0', id, error: { code, message } }).catch((error: unknown) =>
      this.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  }
}

/** A well-formed request or notification but for `params` that is not an object. */
function hasPositionalParams(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { jsonrpc, method, params } = value as { jsonrpc?: unknown; method?: unknown; params?: unknown };
  return (
    jsonrpc === '2.0' &&
    typeof method === 'string' &&
    params !== undefined &&
    (typeof params !== 'object' || params === null || Array.isArray(params))
  );
}

/** The `id` of a parsed message when it is a string or an integer, else `null`. */
function usableId(value: unknown): RequestId {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as { id?: unknown }).id;
  if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) return id;
  return null;
}

/**
 * The `id` of a message from the start of its line, when it comes before any member but `jsonrpc`
 * and `method` (the order clients write); else `null`.
 */
function leadingId(head: string): RequestId {
  const match =
    /^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"(?:[^"\\]|\\.)*"\s*,)*\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*[,}]/.exec(
      head,
    );
  if (match === null) return null;
  try {
    return usableId({ id: JSON.parse(match[1]!) });
  } catch {
    return null;
  }
}
