// Lowest supported zod (the core and tools peer range's floor): the tools run and convert.
import assert from 'node:assert/strict';
import { executeToolCall, toAnthropicTools } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { createCodingTools } from '@sandkit/tools';
const sandbox = await createLocalSandboxAdapter().create();
const tools = createCodingTools(sandbox.client, { root: sandbox.workdir });
await sandbox.client.writeFile(`${sandbox.workdir}/a.txt`, 'a\nb\n');
for (const call of [
  { name: 'read_file', input: { path: 'a.txt' } },
  { name: 'edit_file', input: { path: 'a.txt', edits: [{ oldText: 'b', newText: 'c' }] } },
  { name: 'exec', input: { command: 'cat a.txt' } },
  { name: 'search_files', input: { pattern: 'c' } },
  { name: 'list_files', input: {} },
]) {
  const r = await executeToolCall(tools, call);
  assert.equal(r.isError, false, `${call.name}: ${JSON.stringify(r.content)}`);
}
assert.equal(toAnthropicTools(tools).length, tools.length);
await sandbox.destroy();
console.log(
  'pack smoke: tools OK with zod',
  (await import('zod/package.json', { with: { type: 'json' } })).default.version,
);
