/**
 * Anthropic Messages on the wire (https://docs.anthropic.com/en/api/messages), non-streaming:
 * the request read into a {@link StandInTurn}, a {@link StandInReply} written as the response.
 * The response follows `anthropicMessagesResponseSchema` (`@ai-sdk/anthropic`
 * src/anthropic-messages-api.ts:723-1030: `type: 'message'`, `content` blocks `text` /
 * `tool_use {id, name, input}`, `stop_reason`, `usage.input_tokens` / `output_tokens` required).
 */
import type { StandInMessage, StandInReply, StandInTurn, StandInUsage } from './stand-in-types.js';

interface MessagesRequest {
  model?: unknown;
  system?: unknown;
  messages?: unknown;
  tools?: unknown;
}

type Block = {
  type?: unknown;
  text?: unknown;
  id?: unknown;
  name?: unknown;
  input?: unknown;
  tool_use_id?: unknown;
  content?: unknown;
};

/** Reads a Messages request body; a user message of only `tool_result` blocks becomes role `tool`. */
export function readMessagesRequest(body: MessagesRequest): StandInTurn {
  const messages: StandInMessage[] = [];
  const system = blocksText(body.system);
  if (system !== '') messages.push({ role: 'system', text: system });
  for (const raw of Array.isArray(body.messages)
    ? (body.messages as { role?: unknown; content?: unknown }[])
    : []) {
    const blocks: Block[] =
      typeof raw.content === 'string' ? [{ type: 'text', text: raw.content }] : asBlocks(raw.content);
    const toolCalls = blocks
      .filter((b) => b.type === 'tool_use')
      .map((b) => ({ id: String(b.id ?? ''), name: String(b.name ?? ''), input: b.input }));
    const toolResults = blocks
      .filter((b) => b.type === 'tool_result')
      .map((b) => ({ id: String(b.tool_use_id ?? ''), text: blocksText(b.content) }));
    const text = blocksText(blocks);
    const role = toolResults.length > 0 && text === '' ? 'tool' : String(raw.role ?? '');
    messages.push({
      role,
      text,
      ...(toolCalls.length === 0 ? {} : { toolCalls }),
      ...(toolResults.length === 0 ? {} : { toolResults }),
    });
  }
  const tools = Array.isArray(body.tools)
    ? (body.tools as { name?: unknown }[]).map((t) => String(t.name ?? ''))
    : [];
  return { messages, tools, model: String(body.model ?? '') };
}

/** The JSON body of a `message` answering `reply` (not `http_error`). */
export function anthropicMessage(
  reply: Exclude<StandInReply, { type: 'http_error' }>,
  context: { id: string; model: string; usage: StandInUsage },
): Record<string, unknown> {
  const calls =
    reply.type === 'tool_calls'
      ? reply.calls.map((c) => ({ name: c.name, input: c.input ?? {} }))
      : reply.type === 'raw_tool_call'
        ? [{ name: reply.name, input: parseOrText(reply.argumentsText) }]
        : [];
  const content =
    reply.type === 'text'
      ? [{ type: 'text', text: reply.text }]
      : calls.map((c, index) => ({ type: 'tool_use', id: `toolu_${context.id}_${index}`, ...c }));
  return {
    id: `msg_${context.id}`,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content,
    stop_reason: calls.length === 0 ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    usage: {
      input_tokens: context.usage.inputTokens,
      output_tokens: context.usage.outputTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    },
  };
}

/** The default error body, shaped as Anthropic's (`{"type":"error","error":{"type","message"}}`). */
export function anthropicErrorBody(status: number): Record<string, unknown> {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 529
        ? 'overloaded_error'
        : status >= 500
          ? 'api_error'
          : status === 401
            ? 'authentication_error'
            : 'invalid_request_error';
  return { type: 'error', error: { type, message: `stand-in HTTP ${status}` } };
}

function asBlocks(content: unknown): Block[] {
  return Array.isArray(content) ? (content as Block[]) : [];
}

function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asBlocks(content)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
