/**
 * OpenAI Responses on the wire (https://platform.openai.com/docs/api-reference/responses),
 * non-streaming: the request's `input` items read into a {@link StandInTurn}, a
 * {@link StandInReply} written as a `response` object. The response follows
 * `openaiResponsesResponseSchema` (`@ai-sdk/openai` src/responses/openai-responses-api.ts:1327-1649:
 * `output` items `message {id, role, content: [output_text {text, annotations}]}` and
 * `function_call {id, call_id, name, arguments}` (:1481-1488), `usage` with `input_tokens` /
 * `output_tokens` required (:25-60)).
 */
import type { StandInMessage, StandInReply, StandInTurn, StandInUsage } from './stand-in-types.js';

interface ResponsesRequest {
  model?: unknown;
  instructions?: unknown;
  input?: unknown;
  tools?: unknown;
}

type Item = {
  type?: unknown;
  role?: unknown;
  content?: unknown;
  call_id?: unknown;
  name?: unknown;
  arguments?: unknown;
  output?: unknown;
};

/**
 * Reads a Responses request. `function_call` items join the assistant message before them,
 * `function_call_output` items become role `tool` messages; `item_reference` items (stored
 * items the stand-in never kept) are skipped.
 */
export function readResponsesRequest(body: ResponsesRequest): StandInTurn {
  const messages: StandInMessage[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '') {
    messages.push({ role: 'system', text: body.instructions });
  }
  const items: Item[] =
    typeof body.input === 'string'
      ? [{ role: 'user', content: body.input }]
      : Array.isArray(body.input)
        ? body.input
        : [];
  for (const item of items) {
    const previous = messages.at(-1);
    if (item.type === 'function_call') {
      const call = {
        id: String(item.call_id ?? ''),
        name: String(item.name ?? ''),
        input: parse(String(item.arguments ?? '')),
      };
      if (previous?.role === 'assistant') previous.toolCalls = [...(previous.toolCalls ?? []), call];
      else messages.push({ role: 'assistant', text: '', toolCalls: [call] });
    } else if (item.type === 'function_call_output') {
      const result = { id: String(item.call_id ?? ''), text: partsText(item.output) };
      if (previous?.role === 'tool' && previous.toolResults !== undefined) previous.toolResults.push(result);
      else messages.push({ role: 'tool', text: '', toolResults: [result] });
    } else if (item.role !== undefined) {
      const role = item.role === 'developer' ? 'system' : String(item.role);
      messages.push({ role, text: partsText(item.content) });
    }
  }
  const tools = Array.isArray(body.tools)
    ? (body.tools as { name?: unknown }[]).map((t) => String(t.name ?? ''))
    : [];
  return { messages, tools, model: String(body.model ?? '') };
}

/** The JSON body of a completed `response` answering `reply` (not `http_error`). */
export function responsesResponse(
  reply: Exclude<StandInReply, { type: 'http_error' }>,
  context: { id: string; model: string; created: number; usage: StandInUsage },
): Record<string, unknown> {
  const calls =
    reply.type === 'tool_calls'
      ? reply.calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.input ?? {}) }))
      : reply.type === 'raw_tool_call'
        ? [{ name: reply.name, arguments: reply.argumentsText }]
        : [];
  const output =
    reply.type === 'text'
      ? [
          {
            type: 'message',
            id: `msg_${context.id}`,
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: reply.text, annotations: [] }],
          },
        ]
      : calls.map((c, index) => ({
          type: 'function_call',
          id: `fc_${context.id}_${index}`,
          call_id: `call_${context.id}_${index}`,
          status: 'completed',
          ...c,
        }));
  return {
    id: `resp_${context.id}`,
    object: 'response',
    created_at: context.created,
    status: 'completed',
    model: context.model,
    output,
    incomplete_details: null,
    usage: {
      input_tokens: context.usage.inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: context.usage.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: context.usage.inputTokens + context.usage.outputTokens,
    },
  };
}

function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as { type?: unknown; text?: unknown }[])
    .filter(
      (part) => typeof part.text === 'string' && (part.type === 'input_text' || part.type === 'output_text'),
    )
    .map((part) => part.text as string)
    .join('\n');
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
