/**
 * OpenAI Responses streamed (`stream: true`): the server-sent events of one answer, as
 * https://platform.openai.com/docs/api-reference/responses-streaming documents them and
 * `@ai-sdk/openai` parses them (`openaiResponsesChunkSchema`,
 * src/responses/openai-responses-api.ts:739-1310): `response.created` (`id`, `created_at`,
 * `model`, :809-816), per output item `response.output_item.added` (`message {id}` or
 * `function_call {id, call_id, name, arguments}`, :818-850), `response.output_text.delta`
 * (`item_id`, `delta`, :743-746) or `response.function_call_arguments.delta` (`item_id`,
 * `output_index`, `delta`, :1196-1200), `response.output_item.done` (the finished item, a
 * function call with `status`, :965-990), and `response.completed` with `usage` (:776-786).
 * Every event carries its `type` and a `sequence_number`, and is sent with `event: <type>`.
 */
import type { ServerSentEvent } from './anthropic-messages-stream.js';
import type { StandInReply, StandInUsage } from './stand-in-types.js';

/** The events of a streamed `response` answering `reply` (not `http_error`). */
export function responsesEvents(
  reply: Exclude<StandInReply, { type: 'http_error' }>,
  context: { id: string; model: string; created: number; usage: StandInUsage },
): ServerSentEvent[] {
  let sequence = 0;
  const events: ServerSentEvent[] = [];
  const push = (data: Record<string, unknown>): void => {
    events.push({ event: String(data.type), data: { ...data, sequence_number: sequence++ } });
  };
  const response = {
    id: `resp_${context.id}`,
    object: 'response',
    created_at: context.created,
    model: context.model,
  };
  push({ type: 'response.created', response: { ...response, status: 'in_progress', output: [] } });
  if (reply.type === 'text') {
    const item = { type: 'message', id: `msg_${context.id}`, role: 'assistant' };
    push({
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...item, status: 'in_progress', content: [] },
    });
    push({
      type: 'response.output_text.delta',
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: reply.text,
    });
    push({
      type: 'response.output_item.done',
      output_index: 0,
      item: {
        ...item,
        status: 'completed',
        content: [{ type: 'output_text', text: reply.text, annotations: [] }],
      },
    });
  } else {
    const calls =
      reply.type === 'tool_calls'
        ? reply.calls.map((c) => ({ name: c.name, arguments: JSON.stringify(c.input ?? {}) }))
        : [{ name: reply.name, arguments: reply.argumentsText }];
    calls.forEach((call, index) => {
      const item = {
        type: 'function_call',
        id: `fc_${context.id}_${index}`,
        call_id: `call_${context.id}_${index}`,
        name: call.name,
      };
      push({
        type: 'response.output_item.added',
        output_index: index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      push({
        type: 'response.function_call_arguments.delta',
        item_id: item.id,
        output_index: index,
        delta: call.arguments,
      });
      push({
        type: 'response.function_call_arguments.done',
        item_id: item.id,
        output_index: index,
        arguments: call.arguments,
      });
      push({
        type: 'response.output_item.done',
        output_index: index,
        item: { ...item, arguments: call.arguments, status: 'completed' },
      });
    });
  }
  push({
    type: 'response.completed',
    response: {
      ...response,
      status: 'completed',
      incomplete_details: null,
      usage: {
        input_tokens: context.usage.inputTokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: context.usage.outputTokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: context.usage.inputTokens + context.usage.outputTokens,
      },
    },
  });
  return events;
}
