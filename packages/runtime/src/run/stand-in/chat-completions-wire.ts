/**
 * OpenAI Chat Completions on the wire (https://platform.openai.com/docs/api-reference/chat):
 * the request read into a {@link StandInTurn}, a {@link StandInReply} written as the response.
 * The response follows the schema the providers parse: `openaiChatResponseSchema`
 * (`@ai-sdk/openai` src/chat/openai-chat-api.ts:28-131) and `OpenAICompatibleChatResponseSchema`
 * (`@ai-sdk/openai-compatible` src/chat/openai-compatible-chat-language-model.ts:859); stream
 * chunks follow `openaiChatChunkSchema` (openai-chat-api.ts:135-241).
 */
import type { StandInMessage, StandInReply, StandInTurn, StandInUsage } from './stand-in-types.js';

interface ChatRequest {
  model?: unknown;
  messages?: unknown;
  tools?: unknown;
  stream?: unknown;
}

/** Reads a Chat Completions request body. Unknown shapes become empty text, never a throw. */
export function readChatRequest(body: ChatRequest): StandInTurn {
  const messages: StandInMessage[] = [];
  for (const raw of Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : []) {
    const role = String(raw.role ?? '');
    if (role === 'tool') {
      const result = { id: String(raw.tool_call_id ?? ''), text: contentText(raw.content) };
      const previous = messages.at(-1);
      if (previous?.role === 'tool' && previous.toolResults !== undefined) previous.toolResults.push(result);
      else messages.push({ role: 'tool', text: '', toolResults: [result] });
      continue;
    }
    const message: StandInMessage = { role, text: contentText(raw.content) };
    if (Array.isArray(raw.tool_calls)) {
      message.toolCalls = (
        raw.tool_calls as { id?: unknown; function?: { name?: unknown; arguments?: unknown } }[]
      ).map((call) => ({
        id: String(call.id ?? ''),
        name: String(call.function?.name ?? ''),
        input: parseArguments(String(call.function?.arguments ?? '')),
      }));
    }
    messages.push(message);
  }
  const tools = Array.isArray(body.tools)
    ? (body.tools as { function?: { name?: unknown } }[]).map((t) => String(t.function?.name ?? ''))
    : [];
  return { messages, tools, model: String(body.model ?? '') };
}

/** The JSON body of a non-streaming `chat.completion` answering `reply` (not `http_error`). */
export function chatCompletion(
  reply: Exclude<StandInReply, { type: 'http_error' }>,
  context: { id: string; model: string; created: number; usage: StandInUsage },
): Record<string, unknown> {
  const toolCalls = chatToolCalls(reply, context.id);
  return {
    id: context.id,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: reply.type === 'text' ? reply.text : null,
          ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
        },
        finish_reason: toolCalls.length === 0 ? 'stop' : 'tool_calls',
      },
    ],
    usage: chatUsage(context.usage),
  };
}

/** The `data:` payloads of a streamed answer, ending with the usage chunk; the caller adds `[DONE]`. */
export function chatCompletionChunks(
  reply: Exclude<StandInReply, { type: 'http_error' }>,
  context: { id: string; model: string; created: number; usage: StandInUsage },
): Record<string, unknown>[] {
  const base = {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
  };
  const toolCalls = chatToolCalls(reply, context.id);
  const chunks: Record<string, unknown>[] = [
    { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] },
  ];
  if (reply.type === 'text') {
    chunks.push({ ...base, choices: [{ index: 0, delta: { content: reply.text }, finish_reason: null }] });
  }
  toolCalls.forEach((call, index) => {
    chunks.push({
      ...base,
      choices: [{ index: 0, delta: { tool_calls: [{ index, ...call }] }, finish_reason: null }],
    });
  });
  chunks.push({
    ...base,
    choices: [{ index: 0, delta: {}, finish_reason: toolCalls.length === 0 ? 'stop' : 'tool_calls' }],
  });
  chunks.push({ ...base, choices: [], usage: chatUsage(context.usage) });
  return chunks;
}

/** The default error body, shaped as OpenAI's (`{"error":{"message","type","code"}}`). */
export function chatErrorBody(status: number): Record<string, unknown> {
  return {
    error: {
      message: `stand-in HTTP ${status}`,
      type: status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error',
      param: null,
      code: null,
    },
  };
}

function chatToolCalls(reply: Exclude<StandInReply, { type: 'http_error' }>, id: string) {
  const calls =
    reply.type === 'tool_calls'
      ? reply.calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.input ?? {}) }))
      : reply.type === 'raw_tool_call'
        ? [{ name: reply.name, arguments: reply.argumentsText }]
        : [];
  return calls.map((call, index) => ({ id: `call_${id}_${index}`, type: 'function', function: call }));
}

function chatUsage(usage: StandInUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: { cached_tokens: 0 },
  };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as { type?: unknown; text?: unknown }[])
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text as string)
    .join('\n');
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
