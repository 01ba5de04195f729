/**
 * A local S3-compatible server for tests and benches: s3rver in a child process. What it checks,
 * from its source (lib/middleware/authentication.js): SigV4 header and query auth are parsed, the
 * access key must be its account's (`S3RVER` / `S3RVER`), a presigned URL past `X-Amz-Date +
 * X-Amz-Expires` is refused with 403 `AccessDenied` "Request has expired", `X-Amz-Expires` over
 * 604_800 is refused; the V4 signature itself is not recomputed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** A running stand-in. */
export interface S3StandIn {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts the stand-in with one empty bucket. */
export async function startS3StandIn(bucket = 'sandkit-test'): Promise<S3StandIn> {
  const directory = await mkdtemp(join(tmpdir(), 'sandkit-s3-'));
  const script = fileURLToPath(new URL('./s3-stand-in-server.mjs', import.meta.url));
  const child = spawn(process.execPath, [script, directory, bucket], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the S3 stand-in exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  const { port } = JSON.parse(line) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    process: child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(directory, { recursive: true, force: true });
    },
  };
}
