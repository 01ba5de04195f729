/**
 * Test helper for the file tools: a real local sandbox whose files are created and inspected with
 * node:fs on the host, so tests see the exact bytes the tools wrote.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';

/** A local sandbox plus byte-level helpers on its workdir. */
export interface FileToolsSandbox {
  handle: SandboxHandle;
  root: string;
  put(path: string, content: string | Uint8Array, mode?: number): Promise<void>;
  bytes(path: string): Promise<Buffer>;
}

/** Creates a fresh local sandbox; call `handle.destroy()` when done. */
export async function createFileToolsSandbox(): Promise<FileToolsSandbox> {
  const handle = await createLocalSandboxAdapter().create();
  const root = handle.workdir;
  return {
    handle,
    root,
    async put(path, content, mode) {
      const full = join(root, path);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(
        full,
        typeof content === 'string' ? Buffer.from(content, 'latin1') : content,
        mode === undefined ? {} : { mode },
      );
    },
    bytes: (path) => readFile(join(root, path)),
  };
}

/** Latin1 string → bytes, so `'caf\xe9'` is the four bytes 63 61 66 e9. */
export function bytesOf(latin1: string): Buffer {
  return Buffer.from(latin1, 'latin1');
}
