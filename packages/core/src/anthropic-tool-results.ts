import { type AssistantToolCalls, assertToolResultsComplete } from './assert-tool-results-complete.js';
import type { ToolCallResult } from './tool-call-result.js';
import {
  emptyResultText,
  isProviderImageType,
  type ProviderImageMediaType,
  unsupportedImageNote,
} from './tool-content-media.js';

/** An Anthropic text block. */
export interface AnthropicTextBlock {
  type: 'text';
  text: string;
}

/** An Anthropic image block with a base64 source. */
export interface AnthropicImageBlock {
  type: 'image';
  source: { type: 'base64'; media_type: ProviderImageMediaType; data: string };
}

/** An Anthropic PDF document block with a base64 source. */
export interface AnthropicDocumentBlock {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string };
  title?: string;
}

/** An Anthropic `tool_result` block (assignable to `Anthropic.ToolResultBlockParam`). */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock>;
  is_error: boolean;
}

/** The user message that answers an assistant turn's tool calls (assignable to `Anthropic.MessageParam`). */
export interface AnthropicToolResultMessage {
  role: 'user';
  content: Array<AnthropicToolResultBlock | AnthropicTextBlock>;
}

/** Options of {@link toAnthropicToolResultMessage}. */
export interface AnthropicToolResultOptions {
  /**
   * The assistant turn's calls (its `message.content`, or the call ids). When given, the results are
   * checked against them and put in their order. @default no check; results in the given order
   */
  calls?: AssistantToolCalls;
  /** Free text to add after all `tool_result` blocks. @default none */
  text?: string;
}

/**
 * One `user` message answering an assistant turn: all `tool_result` blocks first, in order (the API
 * requires them at the beginning of the message), then `options.text`. Images (PNG/JPEG/GIF/WebP) go
 * inside `tool_result.content` as `image` blocks with a base64 source, PDFs as `document` blocks; an
 * image of another type is replaced by a text saying it was omitted. Empty results get "(no output)".
 *
 * @throws SandkitError `incomplete_tool_results` when `options.calls` is given and a call has no result,
 *   several, or a result answers no call.
 */
export function toAnthropicToolResultMessage(
  results: readonly ToolCallResult[],
  options: AnthropicToolResultOptions = {},
): AnthropicToolResultMessage {
  const ordered = options.calls === undefined ? results : assertToolResultsComplete(options.calls, results);
  const content: AnthropicToolResultMessage['content'] = ordered.map(toToolResultBlock);
  if (options.text !== undefined && options.text !== '') content.push({ type: 'text', text: options.text });
  return { role: 'user', content };
}

function toToolResultBlock(result: ToolCallResult): AnthropicToolResultBlock {
  const blocks: AnthropicToolResultBlock['content'] = [];
  for (const part of result.content) {
    if (part.type === 'text') {
      if (part.text !== '') blocks.push({ type: 'text', text: part.text });
    } else if (part.type === 'image') {
      if (isProviderImageType(part.mediaType)) {
        blocks.push({
          type: 'image',
          source: { type: 'base64', media_type: part.mediaType, data: part.data },
        });
      } else {
        blocks.push({ type: 'text', text: unsupportedImageNote(part.mediaType, 'Anthropic') });
      }
    } else {
      const document: AnthropicDocumentBlock = {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: part.data },
      };
      if (part.title !== undefined) document.title = part.title;
      blocks.push(document);
    }
  }
  if (blocks.length === 0) blocks.push({ type: 'text', text: emptyResultText });
  return { type: 'tool_result', tool_use_id: result.callId, content: blocks, is_error: result.isError };
}
