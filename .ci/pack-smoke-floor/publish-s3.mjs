// The lowest supported AWS SDK (@aws-sdk/client-s3 and s3-request-presigner 3.729.0, the first
// with requestChecksumCalculation) under plain node: the publish tool sends a file of two parts and
// a small one to s3rver on 127.0.0.1, and plain fetch downloads the same bytes from the links.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { executeToolCall } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { createCodingTools } from '@sandkit/tools';
import { createS3Publisher } from '@sandkit/tools/s3';
import S3rver from 's3rver';

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const directory = mkdtempSync(join(tmpdir(), 'sandkit-smoke-s3-'));
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: 'smoke' }],
});
const { port } = await server.run();
const sandbox = await createLocalSandboxAdapter().create();
try {
  const publisher = createS3Publisher({
    bucket: 'smoke',
    prefix: 'floor',
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  const tools = createCodingTools(sandbox.client, { root: sandbox.workdir, publisher });
  for (const [name, bytes] of [
    ['two parts.bin', randomBytes(6 * 1024 * 1024)],
    ['small.txt', Buffer.from('hello\n')],
  ]) {
    await sandbox.client.writeFile(`${sandbox.workdir}/${name}`, bytes);
    const result = await executeToolCall(tools, { name: 'publish', input: { path: name } });
    assert.equal(result.isError, false, JSON.stringify(result.content));
    assert.equal(result.output.sha256, sha256(bytes));
    const response = await fetch(result.output.url);
    assert.equal(response.status, 200);
    assert.equal(sha256(Buffer.from(await response.arrayBuffer())), sha256(bytes));
  }
} finally {
  await sandbox.destroy();
  await server.close();
  rmSync(directory, { recursive: true, force: true });
}
const version = (await import('@aws-sdk/client-s3/package.json', { with: { type: 'json' } })).default.version;
console.log('pack smoke: publish to S3 OK with @aws-sdk/client-s3', version);
