/**
 * What a tool result looks like to the model: a list of content parts. Provider formats turn it
 * into Anthropic `tool_result` content, OpenAI tool messages, AI SDK tool outputs or MCP content.
 * @module
 */

/** Plain text. */
export interface ToolTextContent {
  type: 'text';
  text: string;
}

/** An image, base64-encoded. `mediaType` is one of `image/png`, `image/jpeg`, `image/gif`, `image/webp`. */
export interface ToolImageContent {
  type: 'image';
  mediaType: string;
  /** Base64 (standard alphabet, padded), no `data:` prefix. */
  data: string;
}

/** A document (PDF), base64-encoded. */
export interface ToolDocumentContent {
  type: 'document';
  mediaType: 'application/pdf';
  data: string;
  /** File name shown to the model, when known. */
  title?: string;
}

/** One part of a tool result. */
export type ToolContent = ToolTextContent | ToolImageContent | ToolDocumentContent;
