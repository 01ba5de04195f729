import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { defineTool, SandboxError, type SandboxHandle, SandkitErrorCode } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defaultCodingTools } from '../../src/agent/default-coding-tools.js';
import { createMcpServer } from '../../src/mcp/create-mcp-server.js';

const handles: SandboxHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.destroy()));
});

async function connect(tools: Parameters<typeof createMcpServer>[0]): Promise<Client> {
  const server = createMcpServer(tools, { name: 'test-server', version: '9.9.9' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('createMcpServer', () => {
  it('lists each tool with its JSON Schema and permission annotations', async () => {
    const handle = await createLocalSandboxAdapter().create();
    handles.push(handle);
    const tools = defaultCodingTools(handle.client, handle.workdir);
    const client = await connect(tools);
    expect(client.getServerVersion()).toMatchObject({ name: 'test-server', version: '9.9.9' });
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(tools.map((t) => t.name));
    for (const tool of tools) {
      const entry = listed.find((t) => t.name === tool.name)!;
      expect(entry.inputSchema).toEqual(tool.jsonSchema);
      expect(entry.annotations).toMatchObject({
        readOnlyHint: tool.permission === 'read',
        destructiveHint: tool.permission !== 'read',
      });
    }
    await client.close();
  });

  it('lists only read tools for a readonly tool set and refuses the others as unknown', async () => {
    const handle = await createLocalSandboxAdapter().create();
    handles.push(handle);
    const client = await connect(defaultCodingTools(handle.client, handle.workdir, { readonly: true }));
    const listed = (await client.listTools()).tools;
    expect(listed.length).toBeGreaterThan(0);
    for (const tool of listed) expect(tool.annotations?.readOnlyHint).toBe(true);
    const refused = await client.callTool({ name: 'exec', arguments: { command: 'touch x' } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('Unknown tool');
    await client.close();
  });

  it('returns tool errors and even sandbox failures as isError results with the message', async () => {
    const dead = defineTool({
      name: 'dead',
      description: 'a sandbox that is gone',
      permission: 'read',
      inputSchema: z.object({}),
      outputSchema: z.object({}),
      async execute() {
        throw new SandboxError({ code: SandkitErrorCode.sandboxGone, message: 'the sandbox is gone' });
      },
    });
    const client = await connect([dead]);
    const result = await client.callTool({ name: 'dead', arguments: {} });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'the sandbox is gone' }] });
    await client.close();
  });

  it('returns images as image content and PDFs as embedded resources', async () => {
    const media = defineTool({
      name: 'media',
      description: 'returns media',
      permission: 'read',
      inputSchema: z.object({}),
      outputSchema: z.object({}),
      async execute() {
        return {};
      },
      toContent: () => [
        { type: 'text', text: 'two attachments' },
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', title: 'spec.pdf' },
      ],
    });
    const client = await connect([media]);
    const result = await client.callTool({ name: 'media', arguments: {} });
    expect(result.content).toEqual([
      { type: 'text', text: 'two attachments' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      {
        type: 'resource',
        resource: { uri: 'sandkit:document/spec.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' },
      },
    ]);
    await client.close();
  });
});
