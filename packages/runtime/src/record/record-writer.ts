/**
 * Appends JSON lines to a host file and, optionally, to `<sandboxDir>/index.jsonl` inside a sandbox.
 * @module
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatCommand, type SandboxClient, SandkitError, SandkitErrorCode } from '@sandkit/core';

/** One line of a recording. `type` says what it is: `'tool_call'` or `'run'` (an agent run's summary). */
export type RecordLine = { type: string; [key: string]: unknown };

/** Where and how records are written. */
export interface RecordWriterOptions {
  /** Host file the records are appended to, one JSON line each; parent directories are created. */
  file?: string;
  /** Directory inside the sandbox that receives `index.jsonl` (and large outputs as separate files). Needs `client`. */
  sandboxDir?: string;
  /** The sandbox to write `sandboxDir` in. */
  client?: SandboxClient;
  /** An output whose JSON is larger than this many bytes goes to `<sandboxDir>/outputs/<callId>.json`. @default 16_384 */
  maxInlineOutputBytes?: number;
  /**
   * Changes a record before it is written (it gets its own deep copy), or drops it by returning `null`.
   * When it throws, the record is dropped: it is never written unredacted.
   */
  redact?: (record: RecordLine) => RecordLine | null;
  /** Called when writing fails (the recorded call itself is not affected). @default writes a line to stderr */
  onError?: (error: unknown) => void;
}

/** Writes records in the order they were given. */
export interface RecordWriter {
  /** Redacts and appends one record; resolves when it is written (or dropped). Never rejects. */
  write(record: RecordLine): Promise<void>;
}

/**
 * Creates a {@link RecordWriter}.
 * @throws SandkitError `invalid_option` when neither `file` nor `sandboxDir` is given, or `sandboxDir`
 *   is given without `client`.
 */
export function createRecordWriter(options: RecordWriterOptions): RecordWriter {
  const { file, sandboxDir, client, redact } = options;
  if (file === undefined && sandboxDir === undefined) invalid('give file, sandboxDir, or both');
  if (sandboxDir !== undefined && client === undefined)
    invalid('sandboxDir needs the client of the sandbox to write in');
  const maxInline = options.maxInlineOutputBytes ?? 16_384;
  const onError =
    options.onError ?? ((error) => process.stderr.write(`sandkit: recording failed: ${String(error)}\n`));
  let queue: Promise<void> = Promise.resolve();
  let madeDir = false;

  const persist = async (record: RecordLine): Promise<void> => {
    if (file !== undefined) {
      await mkdir(dirname(file), { recursive: true });
      await appendFile(file, `${JSON.stringify(record)}\n`);
    }
    if (sandboxDir !== undefined && client !== undefined) {
      let line = record;
      const outputJson = 'output' in record ? JSON.stringify(record.output) : undefined;
      if (!madeDir) {
        await mustExec(client, formatCommand(['mkdir', '-p', '--', `${sandboxDir}/outputs`]));
        madeDir = true;
      }
      if (outputJson !== undefined && Buffer.byteLength(outputJson) > maxInline) {
        const name = `outputs/${safeName(String(record.callId ?? Date.now()))}.json`;
        await client.writeFile(`${sandboxDir}/${name}`, outputJson);
        const { output: _omitted, ...rest } = record;
        line = { ...rest, outputFile: name };
      }
      await mustExec(
        client,
        `cat >> ${formatCommand([`${sandboxDir}/index.jsonl`])}`,
        `${JSON.stringify(line)}\n`,
      );
    }
  };

  return {
    write(record) {
      let redacted: RecordLine | null;
      try {
        const copy = JSON.parse(JSON.stringify(record)) as RecordLine;
        redacted = redact ? redact(copy) : copy;
      } catch (error) {
        onError(error);
        redacted = null;
      }
      if (redacted === null) return queue;
      const line = redacted;
      queue = queue.then(() => persist(line)).catch(onError);
      return queue;
    },
  };
}

async function mustExec(client: SandboxClient, command: string, stdin?: string): Promise<void> {
  const result = await client.exec(command, stdin === undefined ? {} : { stdin });
  if (result.exitCode !== 0) {
    throw new SandkitError({
      code: SandkitErrorCode.commandFailed,
      message: `recording: \`${command}\` exited with ${result.exitCode}: ${result.stderr.trim()}`,
    });
  }
}

function safeName(callId: string): string {
  return callId.replace(/[^a-zA-Z0-9_.-]/g, '_').slice(0, 100);
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message: `recordToolCalls: ${message}` });
}
