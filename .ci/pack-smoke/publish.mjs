// The publish tool from the installed tarballs under plain node, without the AWS SDK installed:
// `@sandkit/tools/s3` and `sandkit call --publish-s3` refuse with the install command, and the
// local directory publisher round-trips a file through createCodingTools and `sandkit call`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { executeToolCall, SandboxError } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { createCodingTools, createLocalDirectoryPublisher } from '@sandkit/tools';

const install = 'npm install @aws-sdk/client-s3@3 @aws-sdk/s3-request-presigner@3';
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

const missing = await import('@sandkit/tools/s3').then(
  () => assert.fail('@sandkit/tools/s3 loaded without the AWS SDK'),
  (error) => error,
);
assert.ok(SandboxError.isInstance(missing), String(missing));
assert.equal(missing.code, 'sandbox_unavailable');
assert.ok(missing.message.includes(install), missing.message);

const bin = join(process.cwd(), 'node_modules/.bin/sandkit');
const out = mkdtempSync(join(tmpdir(), 'sandkit-smoke-published-'));
const sandbox = await createLocalSandboxAdapter().create();
try {
  const cli = spawnSync(
    bin,
    ['call', 'publish', '{"path":"x"}', '--publish-s3', 'bucket/prefix', '--root', sandbox.workdir],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(cli.status, 1, cli.stderr);
  assert.ok(cli.stderr.includes(install), cli.stderr);

  const bytes = randomBytes(300_000);
  await sandbox.client.writeFile(`${sandbox.workdir}/report 1.bin`, bytes);
  const tools = createCodingTools(sandbox.client, {
    root: sandbox.workdir,
    publisher: createLocalDirectoryPublisher({ directory: out }),
  });
  assert.equal(
    createCodingTools(sandbox.client, { root: sandbox.workdir }).some((t) => t.name === 'publish'),
    false,
  );
  const result = await executeToolCall(tools, { name: 'publish', input: { path: 'report 1.bin' } });
  assert.equal(result.isError, false, JSON.stringify(result.content));
  assert.equal(result.output.sha256, sha256(bytes));
  assert.equal(sha256(readFileSync(fileURLToPath(result.output.url))), sha256(bytes));

  const call = spawnSync(
    bin,
    ['call', 'publish', '{"path":"report 1.bin"}', '--publish-dir', out, '--root', sandbox.workdir],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(call.status, 0, call.stderr);
  const printed = JSON.parse(call.stdout);
  assert.equal(sha256(readFileSync(fileURLToPath(printed.output.url))), sha256(bytes));
} finally {
  await sandbox.destroy();
  rmSync(out, { recursive: true, force: true });
}
console.log('pack smoke: publish OK (no AWS SDK: the install command; local directory round trip)');
