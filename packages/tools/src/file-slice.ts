/**
 * Cuts a window out of a sandbox file INSIDE the sandbox with one `sh` script, so a read near
 * the end of a 1 GB file moves only the window to the host, never the file.
 *
 * Programs used (POSIX plus GNU/busybox `stat -c`): `stat`, `head -c`, `tr`, `wc`, `sha256sum`,
 * `tail -c +N`, `head -n`, and `awk` with `LC_ALL=C` (so `length` counts bytes) to find where a
 * line starts in one pass that stops at that line. Raw stdout bytes are collected through
 * `onStdout`, so invalid UTF-8 reaches the host unchanged.
 * @module
 */
import { formatCommand, type SandboxClient, SandboxError, SandkitErrorCode } from '@sandkit/core';

/** Bytes of a file's start sent with every window, for type sniffing (a tar header needs 262). */
export const sniffBytes = 512;

/** Bytes of a file's start checked for NUL (a NUL there makes the file binary). */
export const binaryCheckBytes = 8192;

/** What to cut. */
export interface FileSliceRequest {
  /** Absolute sandbox path. */
  path: string;
  /** Files up to this many bytes come back whole (the host then cuts the window). */
  wholeMaxBytes: number;
  /** Files up to this many bytes get a SHA-256 digest. */
  digestMaxBytes: number;
  /** 1-based line to start at, or `null` with `byteOffset`. */
  line: number | null;
  /** Byte offset to start at (then `line`, when given, is the line number at that offset). */
  byteOffset: number | null;
  /** Most lines to send, or `null` for a byte window (base64 reads). */
  maxLines: number | null;
  /** Most bytes of the window to send. */
  maxBytes: number;
  /** Skip the NUL check and send the window even for binary files (base64 reads). */
  allowBinary: boolean;
  signal?: AbortSignal;
}

/** What the script found. */
export type FileSlice =
  | { kind: 'missing' }
  | { kind: 'directory' }
  | { kind: 'special' }
  | { kind: 'unreadable' }
  | { kind: 'whole'; size: number; bytes: Uint8Array }
  | { kind: 'binary'; size: number; digest: string | null; head: Uint8Array }
  | { kind: 'past-end'; size: number; totalLines: number | null }
  | { kind: 'window'; size: number; digest: string | null; head: Uint8Array; start: number; startLine: number | null; bytes: Uint8Array };

const script = `f=$1 whole=$2 digmax=$3 line=$4 boff=$5 lines=$6 cap=$7 anybin=$8
if [ -d "$f" ]; then echo directory; exit 0; fi
if [ ! -e "$f" ]; then echo missing; exit 0; fi
if [ ! -f "$f" ]; then echo special; exit 0; fi
if [ ! -r "$f" ]; then echo unreadable; exit 0; fi
size=$(stat -L -c %s -- "$f") || exit 3
if [ "$size" -le "$whole" ]; then echo "whole $size"; exec cat < "$f"; fi
dig=-
if [ "$size" -le "$digmax" ]; then dig=$(sha256sum < "$f") || exit 3; dig=\${dig%% *}; fi
n=$((size < ${binaryCheckBytes} ? size : ${binaryCheckBytes}))
h=$((size < ${sniffBytes} ? size : ${sniffBytes}))
if [ "$anybin" = 0 ] && [ "$(head -c ${binaryCheckBytes} < "$f" | tr -d '\\000' | wc -c)" -ne "$n" ]; then
  echo "binary $size $dig"; head -c ${sniffBytes} < "$f"; exit 0
fi
sl=$line
if [ "$boff" -ge 0 ]; then
  off=$boff
  if [ "$off" -gt "$size" ]; then echo "past-end $size -"; exit 0; fi
  if [ "$sl" -lt 1 ]; then sl=$(($(head -c "$off" < "$f" | wc -l) + 1)); fi
elif [ "$line" -gt 1 ]; then
  r=$(LC_ALL=C awk -v s="$line" 'NR==s{print "at", o; f=1; exit} {o+=length($0)+1} END{if(!f) print "eof", NR}' < "$f") || exit 3
  case $r in "at "*) off=\${r#at };; *) echo "past-end $size \${r#eof }"; exit 0;; esac
else off=0; sl=1; fi
echo "window $size $dig $off $sl"
head -c ${sniffBytes} < "$f"
if [ "$lines" -gt 0 ]; then tail -c +$((off + 1)) < "$f" | head -n "$lines" | head -c "$cap"
else tail -c +$((off + 1)) < "$f" | head -c "$cap"; fi
`;

/**
 * Runs the slicing script for `request` (one `exec`).
 * @throws SandboxError `command_failed`-style `sandbox_unavailable` when a program the script needs fails.
 */
export async function readFileSlice(client: SandboxClient, request: FileSliceRequest): Promise<FileSlice> {
  const argv = [
    'sh', '-c', script, 'read_file', request.path, String(request.wholeMaxBytes), String(request.digestMaxBytes),
    String(request.line ?? 0), String(request.byteOffset ?? -1), String(request.maxLines ?? 0),
    String(request.maxBytes), request.allowBinary ? '1' : '0',
  ];
  const chunks: Uint8Array[] = [];
  let received = 0;
  const limit = Math.max(request.wholeMaxBytes, request.maxBytes + sniffBytes) + 256;
  const result = await client.exec(formatCommand(argv), {
    maxOutputBytes: 4096,
    ...(request.signal ? { signal: request.signal } : {}),
    onStdout: (chunk) => {
      if (received >= limit) return;
      const part = chunk.subarray(0, limit - received);
      chunks.push(part);
      received += part.length;
    },
  });
  if (result.exitCode !== 0) {
    throw new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: `reading ${request.path} in the sandbox failed (exit ${result.exitCode}): ${result.stderr.trim()}`,
      details: { path: request.path, exitCode: result.exitCode },
    });
  }
  return parseSlice(Buffer.concat(chunks, received));
}

function parseSlice(out: Buffer): FileSlice {
  const eol = out.indexOf(0x0a);
  const header = out.subarray(0, eol === -1 ? out.length : eol).toString('latin1').split(' ');
  const body = out.subarray(eol + 1);
  const [kind, sizeText, digestText, offText, lineText] = header;
  const size = Number(sizeText);
  const digest = digestText && digestText !== '-' ? digestText : null;
  switch (kind) {
    case 'missing':
    case 'directory':
    case 'special':
    case 'unreadable':
      return { kind } as FileSlice;
    case 'whole':
      return { kind, size, bytes: body };
    case 'binary':
      return { kind, size, digest, head: body };
    case 'past-end':
      return { kind, size, totalLines: digestText === '-' ? null : Number(digestText) };
    case 'window': {
      const headLength = Math.min(size, sniffBytes);
      return { kind, size, digest, head: body.subarray(0, headLength), start: Number(offText), startLine: Number(lineText), bytes: body.subarray(headLength) };
    }
    default:
      throw new SandboxError({ code: SandkitErrorCode.sandboxUnavailable, message: `unexpected output from the read script: ${header.join(' ').slice(0, 200)}` });
  }
}

/**
 * Byte length of the line that starts at `start` (without its `\n`), measured in the sandbox
 * without moving it: `tail -c +N | head -n 1 | tr -d '\n' | wc -c`.
 */
export async function measureLine(client: SandboxClient, path: string, start: number, signal?: AbortSignal): Promise<number> {
  const command = `tail -c +${start + 1} < ${formatCommand([path])} | head -n 1 | tr -d '\\n' | wc -c`;
  const result = await client.exec(command, signal ? { signal } : {});
  const length = Number(result.stdout.trim());
  if (result.exitCode !== 0 || !Number.isInteger(length)) {
    throw new SandboxError({ code: SandkitErrorCode.sandboxUnavailable, message: `measuring a line of ${path} failed: ${result.stderr.trim()}` });
  }
  return length;
}
