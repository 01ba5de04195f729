import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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

/** The protocol version the last {@link connect} negotiated (the SDK client tells its transport). */
let negotiated: string | undefined;

async function connect(tools: Parameters<typeof createMcpServer>[0]): Promise<Client> {
  const server = createMcpServer(tools, { name: 'test-server', version: '9.9.9' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  negotiated = undefined;
  Object.assign(clientSide, { setProtocolVersion: (version: string) => (negotiated = version) });
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

  describe('structured content (MCP 2025-06-18 and later)', () => {
    it('negotiates a protocol revision of 2025-06-18 or later with the official client', async () => {
      const client = await connect([]);
      expect(negotiated).toBeDefined();
      expect(negotiated! >= '2025-06-18').toBe(true);
      await client.close();
    });

    it("lists every coding tool's output schema as an outputSchema with a root type object", async () => {
      const handle = await createLocalSandboxAdapter().create();
      handles.push(handle);
      const tools = defaultCodingTools(handle.client, handle.workdir);
      const client = await connect(tools);
      const listed = (await client.listTools()).tools;
      for (const tool of listed) {
        expect(tool.outputSchema?.type, tool.name).toBe('object');
        expect(tool.outputSchema, tool.name).not.toHaveProperty('$schema');
      }
      const readFile = listed.find((t) => t.name === 'read_file')!.outputSchema as Record<string, unknown>;
      expect(((readFile.oneOf ?? readFile.anyOf) as unknown[]).length).toBeGreaterThan(1);
      const writeFileSchema = listed.find((t) => t.name === 'write_file')!.outputSchema!;
      expect(Object.keys(writeFileSchema.properties ?? {})).toContain('path');
      await client.close();
    });

    it('returns the validated output as structuredContent beside the text, which the client checks against outputSchema', async () => {
      const handle = await createLocalSandboxAdapter().create();
      handles.push(handle);
      await writeFile(join(handle.workdir, 'notes.txt'), 'alpha\nbeta\n');
      const client = await connect(defaultCodingTools(handle.client, handle.workdir));
      await client.listTools(); // the client keeps each outputSchema and validates results with it

      const read = await client.callTool({ name: 'read_file', arguments: { path: 'notes.txt' } });
      expect(read.isError).toBe(false);
      expect(read.structuredContent).toMatchObject({
        kind: 'text',
        content: '1\talpha\n2\tbeta',
        totalLines: 2,
      });
      expect(read.content).toEqual([{ type: 'text', text: expect.stringContaining('1\talpha') }]);

      const edit = await client.callTool({
        name: 'edit_file',
        arguments: { path: 'notes.txt', edits: [{ oldText: 'beta', newText: 'gamma' }] },
      });
      expect(edit.structuredContent).toMatchObject({ path: 'notes.txt', replacements: 1 });
      expect((edit.structuredContent as { diff: string }).diff).toContain('+gamma');

      const exec = await client.callTool({ name: 'exec', arguments: { command: 'cat notes.txt' } });
      expect(exec.structuredContent).toMatchObject({ exitCode: 0, stdout: 'alpha\ngamma\n' });
      const background = await client.callTool({
        name: 'exec',
        arguments: { command: 'sleep 0.1', background: true },
      });
      expect(background.isError).toBe(false);
      expect(background.structuredContent).toBeDefined();
      await client.close();
    });

    it('returns errors without structuredContent', async () => {
      const handle = await createLocalSandboxAdapter().create();
      handles.push(handle);
      const client = await connect(defaultCodingTools(handle.client, handle.workdir));
      await client.listTools();
      const missing = await client.callTool({ name: 'read_file', arguments: { path: 'no-such-file' } });
      expect(missing.isError).toBe(true);
      expect(missing).not.toHaveProperty('structuredContent');
      await client.close();
    });
  });
});
