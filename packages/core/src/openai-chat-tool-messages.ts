import { type AssistantToolCalls, assertToolResultsComplete } from './assert-tool-results-complete.js';
import type { ToolCallResult } from './tool-call-result.js';
import {
  emptyResultText,
  isProviderImageType,
  toDataUrl,
  unsupportedImageNote,
} from './tool-content-media.js';

/** A Chat Completions tool message (assignable to `OpenAI.Chat.ChatCompletionToolMessageParam`). */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  /** Text only: Chat Completions endpoints reject images in tool messages. */
  content: string;
}

/** A user content part carrying an attachment or its caption. */
export type OpenAIChatAttachmentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'file'; file: { file_data: string; filename: string } };

/** The user message that carries the turn's images and PDFs (assignable to `ChatCompletionUserMessageParam`). */
export interface OpenAIChatAttachmentMessage {
  role: 'user';
  content: OpenAIChatAttachmentPart[];
}

/** Options of {@link toOpenAIChatToolMessages}. */
export interface OpenAIChatToolMessagesOptions {
  /**
   * The assistant message's `tool_calls` (or the call ids). When given, the results are checked against
   * them and put in their order. @default no check; results in the given order
   */
  calls?: AssistantToolCalls;
}

/**
 * The messages that follow an assistant message with `tool_calls`: one `role: "tool"` message per
 * result, consecutive and in order, text only; then, if any result held images or PDFs, ONE `user`
 * message with them (`image_url` / `file` data URLs), each captioned with its call id. A tool message
 * whose image moved says "image attached in the next message"; an image of a type OpenAI does not take
 * is replaced by a text saying it was omitted. Error results start with "Error: ".
 *
 * @throws SandkitError `incomplete_tool_results` when `options.calls` is given and a call has no result,
 *   several, or a result answers no call.
 */
export function toOpenAIChatToolMessages(
  results: readonly ToolCallResult[],
  options: OpenAIChatToolMessagesOptions = {},
): Array<OpenAIChatToolMessage | OpenAIChatAttachmentMessage> {
  const ordered = options.calls === undefined ? results : assertToolResultsComplete(options.calls, results);
  const messages: Array<OpenAIChatToolMessage | OpenAIChatAttachmentMessage> = [];
  const attachments: OpenAIChatAttachmentPart[] = [];
  for (const result of ordered) {
    const texts: string[] = [];
    const own: OpenAIChatAttachmentPart[] = [];
    for (const part of result.content) {
      if (part.type === 'text') {
        if (part.text !== '') texts.push(part.text);
      } else if (part.type === 'image') {
        if (isProviderImageType(part.mediaType)) {
          texts.push(`[image (${part.mediaType}) attached in the next message]`);
          own.push({ type: 'image_url', image_url: { url: toDataUrl(part.mediaType, part.data) } });
        } else {
          texts.push(unsupportedImageNote(part.mediaType, 'OpenAI'));
        }
      } else {
        const filename = part.title ?? 'document.pdf';
        texts.push(`[PDF document "${filename}" attached in the next message]`);
        own.push({ type: 'file', file: { file_data: toDataUrl(part.mediaType, part.data), filename } });
      }
    }
    const text = texts.length === 0 ? emptyResultText : texts.join('\n');
    messages.push({
      role: 'tool',
      tool_call_id: result.callId,
      content: result.isError ? `Error: ${text}` : text,
    });
    if (own.length > 0) {
      attachments.push(
        { type: 'text', text: `Attachments of tool call ${result.callId} (${result.toolName}):` },
        ...own,
      );
    }
  }
  if (attachments.length > 0) messages.push({ role: 'user', content: attachments });
  return messages;
}
