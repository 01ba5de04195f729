/**
 * Anthropic Messages streamed (`stream: true`): the server-sent events of one answer, as
 * https://docs.anthropic.com/en/api/messages-streaming documents them and `@ai-sdk/anthropic`
 * parses them (`anthropicMessagesChunkSchema`, src/anthropic-messages-api.ts:1086-1530):
 * `message_start` (with `usage.input_tokens`, :1090-1099), then per content block
 * `content_block_start` (`text` or `tool_use {id, name, input: {}}`, :1128-1150),
 * `content_block_delta` (`text_delta` / `input_json_delta` with `partial_json`, :1380-1392) and
 * `content_block_stop` (:1434), then `message_delta` (`stop_reason`, `usage.output_tokens`,
 * :1445-1500) and `message_stop` (:1526). Each event goes out as `event: <type>` and
 * `data: <json>`, as the API sends it.
 */
import type { StandInReply, StandInUsage } from './stand-in-types.js';

/** One server-sent event: its `event:` name and its `data:` JSON. */
export interface ServerSentEvent {
  event: string | null;
  data: Record<string, unknown>;
}

/** The events of a streamed `message` answering `reply` (not `http_error`). */
export function anthropicMessageEvents(
  reply: Exclude<StandInReply, { type: 'http_error' }>,
  context: { id: string; model: string; usage: StandInUsage },
): ServerSentEvent[] {
  const event = (data: Record<string, unknown>): ServerSentEvent => ({ event: String(data.type), data });
  const events: ServerSentEvent[] = [
    event({
      type: 'message_start',
      message: {
        id: `msg_${context.id}`,
        type: 'message',
        role: 'assistant',
        model: context.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: context.usage.inputTokens,
          output_tokens: 1,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    }),
  ];
  const blocks: { start: Record<string, unknown>; delta: Record<string, unknown> }[] =
    reply.type === 'text'
      ? [
          {
            start: { type: 'text', text: '' },
            delta: { type: 'text_delta', text: reply.text },
          },
        ]
      : (reply.type === 'tool_calls'
          ? reply.calls.map((c) => ({ name: c.name, json: JSON.stringify(c.input ?? {}) }))
          : [{ name: reply.name, json: reply.argumentsText }]
        ).map((call, index) => ({
          start: { type: 'tool_use', id: `toolu_${context.id}_${index}`, name: call.name, input: {} },
          // streamed arguments arrive as text, so broken JSON reaches the provider as it was written
          delta: { type: 'input_json_delta', partial_json: call.json },
        }));
  blocks.forEach((block, index) => {
    events.push(event({ type: 'content_block_start', index, content_block: block.start }));
    events.push(event({ type: 'content_block_delta', index, delta: block.delta }));
    events.push(event({ type: 'content_block_stop', index }));
  });
  events.push(
    event({
      type: 'message_delta',
      delta: { stop_reason: reply.type === 'text' ? 'end_turn' : 'tool_use', stop_sequence: null },
      usage: { output_tokens: context.usage.outputTokens },
    }),
  );
  events.push(event({ type: 'message_stop' }));
  return events;
}
