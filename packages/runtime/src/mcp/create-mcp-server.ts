/**
 * The tools as an MCP server (Model Context Protocol, spec 2025-06-18 and later: `tools/list` with
 * `outputSchema`, `tools/call` with `structuredContent`).
 *
 * Built on the SDK's low-level `Server` rather than `McpServer`: our tools already carry a
 * self-contained JSON Schema (`tool.jsonSchema`), which `McpServer.registerTool` cannot take as is.
 * @module
 */

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { executeToolCall, type Tool, type ToolContent } from '@sandkit/core';
import { toMcpOutputSchema } from './mcp-output-schema.js';
import { CheckedCallToolRequestSchema } from './tool-call-params.js';

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Reported to clients in `initialize`. @default 'sandkit' */
  name?: string;
  /** @default the @sandkit/runtime version */
  version?: string;
  /**
   * Called with each `tools/call`'s run as it starts (the promise settles when the tool result is
   * ready, never rejects). A stdio server that sees its input end uses it to answer the calls
   * already read before it closes. @default none
   */
  onCall?: (run: Promise<unknown>) => void;
  /**
   * Aborts every running and later call (each is answered with an "aborted" tool error and its
   * commands are killed), as the client's cancellation does for one call. A server that shuts down
   * uses it. @default none
   */
  signal?: AbortSignal;
}

/**
 * Creates an MCP server that lists `tools` and runs them. Connect it to a transport
 * (`await server.connect(new StdioServerTransport())`).
 *
 * - `tools/list`: each tool's name, description, JSON Schema (`inputSchema`), its output schema
 *   (`outputSchema`, from the tool's Zod output schema, see {@link toMcpOutputSchema}) and
 *   annotations: `readOnlyHint: true` for permission `'read'`; `destructiveHint: true` for `'write'`
 *   and `'exec'`.
 * - `tools/call`: runs the tool through `executeToolCall`. A success returns the tool's validated
 *   output as `structuredContent` beside the text content the model reads (MCP 2025-06-18: a tool
 *   with an `outputSchema` must return structured content that conforms to it). Every failure (bad
 *   arguments, unknown tool, tool errors, abort, even a failed sandbox) comes back as
 *   `isError: true` with the message as text and no `structuredContent`.
 *   Images are `{ type: 'image', data, mimeType }`; PDFs are embedded `resource` blobs.
 *   `params` that are not `{ name: string, arguments?: object }` get JSON-RPC error `-32602`
 *   (invalid params) naming the problem (see {@link CheckedCallToolRequestSchema}).
 * The client's cancellation (`notifications/cancelled`) aborts the call and kills its commands.
 */
export function createMcpServer(tools: readonly Tool[], options: McpServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? 'sandkit', version: options.version ?? '0.1.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.jsonSchema,
      ...outputSchemaOf(tool),
      annotations: {
        readOnlyHint: tool.permission === 'read',
        destructiveHint: tool.permission !== 'read',
        openWorldHint: false,
      },
    })),
  }));
  server.setRequestHandler(CheckedCallToolRequestSchema, (request, extra): Promise<CallToolResult> => {
    const run = callTool(request.params, extra);
    options.onCall?.(run.catch(() => {}));
    return run;
  });
  const callTool = async (
    params: { name: string; arguments?: Record<string, unknown> | undefined },
    extra: { requestId: string | number; signal: AbortSignal },
  ): Promise<CallToolResult> => {
    const { name, arguments: input = {} } = params;
    const result = await executeToolCall(
      tools,
      { name, input, id: String(extra.requestId) },
      {
        signal: options.signal ? AbortSignal.any([extra.signal, options.signal]) : extra.signal,
        operatorErrors: 'result',
      },
    );
    const content = result.content.map(toMcpContent);
    const tool = tools.find((candidate) => candidate.name === name);
    if (result.isError || tool === undefined || toMcpOutputSchema(tool) === null)
      return { content, isError: result.isError };
    return { content, structuredContent: result.output as Record<string, unknown>, isError: false };
  };
  return server;
}

function outputSchemaOf(tool: Tool): { outputSchema?: Record<string, unknown> & { type: 'object' } } {
  const outputSchema = toMcpOutputSchema(tool);
  return outputSchema === null ? {} : { outputSchema };
}

type McpContent = CallToolResult['content'][number];

function toMcpContent(part: ToolContent): McpContent {
  if (part.type === 'text') return { type: 'text', text: part.text };
  if (part.type === 'image') return { type: 'image', data: part.data, mimeType: part.mediaType };
  const title = part.title ?? 'document.pdf';
  return {
    type: 'resource',
    resource: {
      uri: `sandkit:document/${encodeURIComponent(title)}`,
      mimeType: part.mediaType,
      blob: part.data,
    },
  };
}
