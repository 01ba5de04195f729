// Plain-node smoke test of the installed tarballs (run by .ci/pack-smoke.sh in a temp app outside
// the repository): the local adapter, createCodingTools and executeToolCall, the way the README's
// Quick start uses them, then the optional vendor subpaths without their vendor packages.
import assert from 'node:assert/strict';
import { executeToolCall, SandkitErrorCode } from '@sandkit/core';
import { createMcpServer } from '@sandkit/runtime';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { createCodingTools } from '@sandkit/tools';

const sandbox = await createLocalSandboxAdapter().create();
try {
  const tools = createCodingTools(sandbox.client, { root: sandbox.workdir });
  await sandbox.client.writeFile(`${sandbox.workdir}/hello.txt`, 'hello\nworld\n');

  const read = await executeToolCall(tools, { name: 'read_file', input: { path: 'hello.txt' } });
  assert.equal(read.isError, false, JSON.stringify(read.content));
  assert.equal(read.output.content, '1\thello\n2\tworld');

  const edit = await executeToolCall(tools, {
    name: 'edit_file',
    input: { path: 'hello.txt', edits: [{ oldText: 'world', newText: 'there' }] },
  });
  assert.equal(edit.isError, false, JSON.stringify(edit.content));
  assert.match(edit.output.diff, /^-world\n\+there$/m);

  const exec = await executeToolCall(tools, { name: 'exec', input: { command: 'cat hello.txt' } });
  assert.equal(exec.isError, false, JSON.stringify(exec.content));
  assert.deepEqual([exec.output.exitCode, exec.output.stdout], [0, 'hello\nthere\n']);

  const bad = await executeToolCall(tools, { name: 'edit_file', input: { path: 'hello.txt', edits: [] } });
  assert.equal(bad.isError, true, 'a model mistake is an error result, not a throw');
} finally {
  await sandbox.destroy();
}

assert.equal(typeof createMcpServer, 'function');

// Vendor subpaths whose optional peers this app did not install say what to install.
for (const [subpath, install] of [
  ['@sandkit/sandbox-adapters/e2b', 'npm install e2b@2 @e2b/code-interpreter@2'],
  ['@sandkit/sandbox-adapters/conformance', 'npm install --save-dev vitest@4'],
]) {
  await assert.rejects(import(subpath), (error) => {
    assert.equal(error.code, SandkitErrorCode.sandboxUnavailable);
    assert.ok(error.message.endsWith(install), error.message);
    return true;
  });
}
console.log('pack smoke: read_file, edit_file, exec and the vendor-subpath messages OK under plain node');
