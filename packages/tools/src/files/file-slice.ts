/**
 * Cuts a window out of a sandbox file INSIDE the sandbox with one `sh` script, so a read near
 * the end of a 1 GB file moves only the window to the host, never the file.
 *
 * Programs used (POSIX plus GNU/busybox `stat -c`): `stat`, `head -c`, `tr`, `wc`, `sha256sum`,
 * `tail -c +N`. To find where line N starts, GNU `grep -c -m N-1 ''` counts lines at memchr speed
 * (about 2× faster than `sed -n`) and, as POSIX asks, leaves the shared file offset just after the
 * last line it counted; the script reads that offset from `/proc/self/fdinfo`. Without GNU grep
 * or /proc, `awk` with `LC_ALL=C` (so `length` counts bytes) finds it in one pass instead. Raw stdout bytes are collected through
 * `onStdout`, so invalid UTF-8 reaches the host unchanged.
 * @module
 */
import { formatCommand, type SandboxClient, SandboxError, SandkitErrorCode } from '@sandkit/core';

/**
 * Bytes of a file's start sent with every window: the host checks them for NUL (binary) and
 * sniffs the type (a tar header needs 262).
 */
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
  /** Most bytes of the window to send. */
  maxBytes: number;
  /** Skip the NUL check before a line scan (base64 reads); otherwise a file with a NUL in its first chunk is not scanned. */
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
  | { kind: 'past-end'; size: number; totalLines: number | null }
  | {
      kind: 'window';
      size: number;
      digest: string | null;
      head: Uint8Array;
      start: number;
      startLine: number | null;
      bytes: Uint8Array;
    };

const script = `f=$1 whole=$2 digmax=$3 line=$4 boff=$5 cap=$6 anybin=$7 scan=$8 check=0
if [ -d "$f" ]; then echo directory; exit 0; fi
if [ ! -e "$f" ]; then
  # a symlink loop leads nowhere: not a missing file
  if [ -L "$f" ]; then case $(LC_ALL=C stat -L -- "$f" 2>&1) in *'Too many levels of symbolic links'*) echo special; exit 0;; esac; fi
  echo missing; exit 0
fi
if [ ! -f "$f" ]; then echo special; exit 0; fi
if [ ! -r "$f" ]; then echo unreadable; exit 0; fi
size=$(stat -L -c %s -- "$f") || exit 3
if [ "$size" -le "$whole" ]; then echo "whole $size"; exec cat < "$f"; fi
dig=-
if [ "$size" -le "$digmax" ]; then dig=$(sha256sum < "$f") || exit 3; dig=\${dig%% *}; fi
sl=$line
if [ "$boff" -ge 0 ]; then
  off=$boff
  if [ "$off" -gt "$size" ]; then echo "past-end $size -"; exit 0; fi
  if [ "$sl" -lt 1 ]; then sl=$(($(head -c "$off" < "$f" | wc -l) + 1)); fi
elif [ "$line" -gt 1 ]; then
  if [ "$anybin" = 0 ] && [ "$(head -c ${binaryCheckBytes} < "$f" | tr -d '\\000' | wc -c)" -ne ${binaryCheckBytes} ]; then
    echo "window $size $dig 0 1"; exec head -c ${binaryCheckBytes} < "$f"
  fi
  pos=
  if [ "$scan" = grep ] && [ -r /proc/self/fdinfo/0 ] && case $(grep -V 2>/dev/null) in *GNU*) true;; *) false;; esac; then
    exec 3< "$f"
    n=$(LC_ALL=C grep -a -c -m $((line - 1)) '' <&3)
    while read -r k v; do if [ "$k" = pos: ]; then pos=$v; fi; done < /proc/self/fdinfo/3
    exec 3<&-
    if [ "\${n:-0}" -lt $((line - 1)) ]; then echo "past-end $size \${n:-0}"; exit 0; fi
  fi
  if [ -n "$pos" ] && [ "$pos" -gt 0 ] && [ "$pos" -lt "$size" ]; then off=$pos check=1
  else
    r=$(LC_ALL=C awk -v s="$line" 'NR==s{print "at", o; f=1; exit} {o+=length($0)+1} END{if(!f) print "eof", NR}' < "$f") || exit 3
    case $r in "at "*) off=\${r#at };; *) echo "past-end $size \${r#eof }"; exit 0;; esac
  fi
else off=0; sl=1; fi
echo "window $size $dig $off $sl $check"
head -c ${binaryCheckBytes} < "$f"
tail -c +$((off + 1 - check)) < "$f" | head -c $((cap + check))
`;

/**
 * Runs the slicing script for `request` (one `exec`).
 * @throws SandboxError `command_failed`-style `sandbox_unavailable` when a program the script needs fails.
 */
export async function readFileSlice(client: SandboxClient, request: FileSliceRequest): Promise<FileSlice> {
  const slice = await runSliceScript(client, request, 'grep');
  // The grep scan's offset is checked by the byte before the window, which must end the previous
  // line; a grep that does not leave the file offset after its last line (POSIX asks it to, GNU
  // grep does) fails the check and the awk scan runs instead.
  return slice === 'unverified' ? (runSliceScript(client, request, 'awk') as Promise<FileSlice>) : slice;
}

async function runSliceScript(
  client: SandboxClient,
  request: FileSliceRequest,
  scan: 'grep' | 'awk',
): Promise<FileSlice | 'unverified'> {
  const argv = [
    request.path,
    String(request.wholeMaxBytes),
    String(request.digestMaxBytes),
    String(request.line ?? 0),
    String(request.byteOffset ?? -1),
    String(request.maxBytes),
    request.allowBinary ? '1' : '0',
    scan,
  ];
  const chunks: Uint8Array[] = [];
  let received = 0;
  const limit = Math.max(request.wholeMaxBytes, request.maxBytes + binaryCheckBytes) + 256;
  const result = await client.exec(`set -- ${formatCommand(argv)}\n${script}`, {
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

function parseSlice(out: Buffer): FileSlice | 'unverified' {
  const eol = out.indexOf(0x0a);
  const header = out
    .subarray(0, eol === -1 ? out.length : eol)
    .toString('latin1')
    .split(' ');
  const body = out.subarray(eol + 1);
  const [kind, sizeText, digestText, offText, lineText, checkText] = header;
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
    case 'past-end':
      return { kind, size, totalLines: digestText === '-' ? null : Number(digestText) };
    case 'window': {
      const headLength = Math.min(size, binaryCheckBytes);
      const check = checkText === '1' ? 1 : 0;
      if (check === 1 && body[headLength] !== 0x0a) return 'unverified';
      const bytes = body.subarray(headLength + check);
      return {
        kind,
        size,
        digest,
        head: body.subarray(0, headLength),
        start: Number(offText),
        startLine: Number(lineText),
        bytes,
      };
    }
    default:
      throw new SandboxError({
        code: SandkitErrorCode.sandboxUnavailable,
        message: `unexpected output from the read script: ${header.join(' ').slice(0, 200)}`,
      });
  }
}

/**
 * Byte length of the line that starts at `start` (without its `\n`), measured in the sandbox
 * without moving it: `tail -c +N | head -n 1 | tr -d '\n' | wc -c`.
 */
export async function measureLine(
  client: SandboxClient,
  path: string,
  start: number,
  signal?: AbortSignal,
): Promise<number> {
  const command = `tail -c +${start + 1} < ${formatCommand([path])} | head -n 1 | tr -d '\\n' | wc -c`;
  const result = await client.exec(command, signal ? { signal } : {});
  const length = Number(result.stdout.trim());
  if (result.exitCode !== 0 || !Number.isInteger(length)) {
    throw new SandboxError({
      code: SandkitErrorCode.sandboxUnavailable,
      message: `measuring a line of ${path} failed: ${result.stderr.trim()}`,
    });
  }
  return length;
}
