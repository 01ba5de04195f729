/**
 * Runs a command with its whole output saved in the sandbox, and brings back only the head and
 * tail of each stream. Two execs: the command itself as `{ CMD\n} > OUT 2> ERR` (the group's exit
 * status is the command's own, `exit N` included), then a small reader that prints the sizes and
 * the head/tail slices and removes the files that were not cut and hold no control bytes. Host memory stays bounded by the
 * budget whatever the command prints.
 * @module
 */
import { formatCommand, type SandboxClient, utf8Boundary } from '@sandkit/core';
import { ensureLogDirScript, execLogDir, newOutputId } from './exec-log-dir.js';
import { visibleControlBytes } from './visible-control-bytes.js';

/** Options of {@link runCaptured}. */
export interface RunCapturedOptions {
  /** Absolute sandbox directory to run in. */
  cwd: string;
  /** Symlink-free workspace root (the log directory lives under it). */
  root: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Bytes of output (stdout + stderr together) to bring back. */
  budgetBytes: number;
  env?: Record<string, string>;
}

/** One stream, cut to its head and tail when over budget. */
export interface CapturedStream {
  text: string;
  /** Every byte the command wrote to this stream. */
  totalBytes: number;
  truncated: boolean;
  /** Path of the saved whole stream, relative to the root, when it was cut or holds control bytes. */
  file?: string;
  /** Set when control bytes were escaped or the stream described as binary (see visible-control-bytes.ts). */
  note?: string;
}

/** What {@link runCaptured} returns. */
export interface CapturedRun {
  exitCode: number | null;
  /** The signal that ended the command (`'SIGSEGV'`, `'SIGKILL'`), or `null` when it exited. */
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  stdout: CapturedStream;
  stderr: CapturedStream;
}

/** Runs `command` in the sandbox with its output saved under `<root>/.sandkit/exec/`. */
export async function runCaptured(
  client: SandboxClient,
  command: string,
  options: RunCapturedOptions,
): Promise<CapturedRun> {
  const id = newOutputId();
  const dir = execLogDir(options.root);
  const out = `${dir}/${id}.log`;
  const err = `${dir}/${id}.stderr.log`;
  const wrapped = `${ensureLogDirScript(options.root)}\n{ ${command}\n} > ${formatCommand([out])} 2> ${formatCommand([err])}`;
  const started = Date.now();
  const run = await client.exec(wrapped, {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.env ? { env: options.env } : {}),
    maxOutputBytes: 16 * 1024,
  });
  const durationMs = run.durationMs ?? Date.now() - started;
  const read = await readSlices(client, out, err, options.budgetBytes);
  const wrapperError = run.stderr.trim();
  if (read === undefined) {
    // The redirect itself failed (read-only workspace?): report the shell's own message.
    return {
      exitCode: run.exitCode,
      signal: run.signal,
      timedOut: run.timedOut,
      aborted: run.aborted,
      durationMs,
      stdout: unsaved(
        { text: run.stdout, totalBytes: run.stdoutBytes, truncated: run.stdoutTruncated },
        'stdout',
      ),
      stderr: unsaved(
        { text: wrapperError, totalBytes: run.stderrBytes, truncated: run.stderrTruncated },
        'stderr',
      ),
    };
  }
  const relative = (path: string): string => path.slice(options.root.length).replace(/^\//, '');
  return {
    exitCode: run.exitCode,
    signal: run.signal,
    timedOut: run.timedOut,
    aborted: run.aborted,
    durationMs,
    stdout: shown(read.stdout, relative(out), 'stdout'),
    stderr: shown(read.stderr, relative(err), 'stderr'),
  };
}

/**
 * The stream as the model sees it: control bytes made visible (visible-control-bytes.ts), and the
 * saved file named when the stream was cut or holds control bytes (the reader kept it then).
 */
function shown(stream: CapturedStream, file: string, label: string): CapturedStream {
  const visible = visibleControlBytes(stream.text, label, file);
  const kept = stream.truncated || visible.note !== undefined;
  return {
    ...stream,
    text: visible.text,
    ...(kept ? { file } : {}),
    ...(visible.note ? { note: visible.note } : {}),
  };
}

function unsaved(stream: CapturedStream, label: string): CapturedStream {
  const visible = visibleControlBytes(stream.text, label);
  return { ...stream, text: visible.text, ...(visible.note ? { note: visible.note } : {}) };
}

/** Reads sizes and head/tail slices of both files in one exec; `undefined` when they do not exist. */
async function readSlices(
  client: SandboxClient,
  out: string,
  err: string,
  budget: number,
): Promise<{ stdout: CapturedStream; stderr: CapturedStream } | undefined> {
  const script = [
    `o=${formatCommand([out])}; e=${formatCommand([err])}; B=${budget}`,
    `[ -f "$o" ] || { echo missing; exit 0; }`,
    `so=$(($(wc -c < "$o"))); se=0; [ -f "$e" ] && se=$(($(wc -c < "$e")))`,
    'if [ $((so + se)) -le $B ]; then ob=$so; eb=$se; else q=$((B / 4)); eb=$((B - so)); [ $eb -lt $q ] && eb=$q; [ $eb -gt $se ] && eb=$se; ob=$((B - eb)); fi',
    'printf "%s %s %s %s\\n" $so $se $ob $eb',
    'emit() { if [ "$2" -le "$3" ]; then cat "$1"; else h=$(($3 / 2)); head -c $h "$1"; tail -c $(($3 - h)) "$1"; fi; }',
    'emit "$o" $so $ob; [ -f "$e" ] && emit "$e" $se $eb >&2',
    // a stream with control bytes is kept: the result shows them escaped, the file has them raw
    'ctl() { [ $(($(LC_ALL=C tr -d \'\\11\\12\\15\\40-\\176\\200-\\377\' < "$1" | head -c 1 | wc -c))) -gt 0 ]; }',
    '[ $so -le $ob ] && ! ctl "$o" && rm -f "$o"; [ $se -le $eb ] && [ -f "$e" ] && ! ctl "$e" && rm -f "$e"; exit 0',
  ].join('\n');
  const stdout: Uint8Array[] = [];
  const stderr: Uint8Array[] = [];
  await client.exec(script, {
    maxOutputBytes: 1024,
    onStdout: (chunk) => stdout.push(chunk),
    onStderr: (chunk) => stderr.push(chunk),
  });
  const outBytes = Buffer.concat(stdout);
  const newline = outBytes.indexOf(10);
  const header = outBytes.subarray(0, newline < 0 ? outBytes.length : newline).toString('utf8');
  const sizes = /^(\d+) (\d+) (\d+) (\d+)$/.exec(header);
  if (!sizes) return undefined;
  const [so, se, ob, eb] = sizes.slice(1).map(Number) as [number, number, number, number];
  return {
    stdout: sliceStream(outBytes.subarray(newline + 1), so, ob, `${out}`),
    stderr: sliceStream(Buffer.concat(stderr), se, eb, `${err}`),
  };
}

const decoder = new TextDecoder('utf-8');

/**
 * Turns the reader's bytes for one stream into text: whole when within budget, otherwise head +
 * marker + tail, both cut on character boundaries (never a U+FFFD or lone surrogate of our making).
 */
export function sliceStream(
  bytes: Uint8Array,
  totalBytes: number,
  budget: number,
  file: string,
): CapturedStream {
  if (totalBytes <= budget) return { text: decoder.decode(bytes), totalBytes, truncated: false };
  const headLength = Math.min(Math.floor(budget / 2), bytes.length);
  const headEnd = utf8Boundary(bytes, headLength);
  let tailStart = headLength;
  for (
    let step = 0;
    step < 3 && tailStart < bytes.length && ((bytes[tailStart] ?? 0) & 0xc0) === 0x80;
    step++
  )
    tailStart++;
  const head = decoder.decode(bytes.subarray(0, headEnd));
  const tail = decoder.decode(bytes.subarray(tailStart));
  const shown = headEnd + (bytes.length - tailStart);
  const name = file.slice(file.lastIndexOf('/.sandkit/') + 1);
  const marker = `\n[… ${totalBytes - shown} bytes omitted of ${totalBytes} (shown: the first ${headEnd} and the last ${bytes.length - tailStart}); the whole stream is in ${name}: page through it with read_file …]\n`;
  return { text: `${head}${marker}${tail}`, totalBytes, truncated: true };
}
