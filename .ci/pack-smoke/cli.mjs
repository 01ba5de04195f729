// The installed `sandkit` bin under plain node: `sandkit call` and `sandkit mcp` (driven by the
// official MCP SDK client, which the runtime depends on), in a temp workspace.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const bin = join(process.cwd(), 'node_modules/.bin/sandkit');
const root = mkdtempSync(join(tmpdir(), 'sandkit-smoke-ws-'));
try {
  writeFileSync(join(root, 'a.txt'), 'alpha\n');
  const call = JSON.parse(
    execFileSync(bin, ['call', 'read_file', '{"path":"a.txt"}', '--root', root], { encoding: 'utf8' }),
  );
  assert.equal(call.isError, false);
  assert.equal(call.output.content, '1\talpha');

  const transport = new StdioClientTransport({
    command: bin,
    args: ['mcp', '--sandbox', 'local', '--root', root],
    stderr: 'ignore',
  });
  const client = new Client({ name: 'pack-smoke', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  assert.ok(tools.some((tool) => tool.name === 'edit_file' && tool.outputSchema?.type === 'object'));
  const result = await client.callTool({ name: 'exec', arguments: { command: 'cat a.txt' } });
  assert.equal(result.isError, false);
  assert.equal(result.structuredContent.stdout, 'alpha\n');
  await client.close();
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log('pack smoke: sandkit call and sandkit mcp OK under plain node');
