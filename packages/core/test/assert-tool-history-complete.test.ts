import Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { toAnthropicToolResultMessage } from '../src/anthropic-tool-results.js';
import { assertToolHistoryComplete } from '../src/assert-tool-history-complete.js';
import { toOpenAIChatToolMessages } from '../src/openai-chat-tool-messages.js';
import { toOpenAIResponsesToolOutputs } from '../src/openai-responses-tool-outputs.js';
import type { ToolCallResult } from '../src/tool-call-result.js';

const result = (callId: string): ToolCallResult => ({
  callId,
  toolName: 'read_file',
  isError: false,
  content: [{ type: 'text', text: `content of ${callId}` }],
});

function countingFetch(counter: { requests: number }) {
  return async () => {
    counter.requests++;
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

describe('assertToolHistoryComplete', () => {
  describe('with an Anthropic Messages history', () => {
    const assistant: Anthropic.MessageParam = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a' } },
        { type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'b' } },
      ],
    };

    it('C07: throws before the HTTP call when a tool_use has no tool_result, and sends a complete history', async () => {
      const counter = { requests: 0 };
      const client = new Anthropic({ apiKey: 'k', fetch: countingFetch(counter) });
      const send = async (messages: Anthropic.MessageParam[]) => {
        assertToolHistoryComplete(messages);
        return client.messages.create({ model: 'claude-test', max_tokens: 8, messages });
      };
      const missing = [
        { role: 'user' as const, content: 'go' },
        assistant,
        toAnthropicToolResultMessage([result('t1')]),
      ];
      await expect(send(missing)).rejects.toMatchObject({
        code: 'incomplete_tool_results',
        message: expect.stringContaining('tool_use t2 (assistant message 1) has no tool_result'),
      });
      expect(counter.requests).toBe(0);
      await send([
        { role: 'user', content: 'go' },
        assistant,
        toAnthropicToolResultMessage([result('t1'), result('t2')]),
      ]);
      expect(counter.requests).toBe(1);
    });

    it('C07: rejects a result placed after other content, a history ending on the calls, and a stray result', () => {
      const late: Anthropic.MessageParam = {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'a' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          { type: 'tool_result', tool_use_id: 't2', content: 'b' },
        ],
      };
      expect(() => assertToolHistoryComplete([assistant, late])).toThrow(
        'tool_result t2 (assistant message 0) comes after other content',
      );
      expect(() => assertToolHistoryComplete([assistant])).toThrow(
        'tool_use t1 (assistant message 0) has no tool_result',
      );
      const stray = toAnthropicToolResultMessage([result('t1'), result('t2'), result('t9')]);
      expect(() => assertToolHistoryComplete([assistant, stray])).toThrow(
        'tool_result t9 answers no tool_use',
      );
    });
  });

  describe('with an OpenAI Chat history', () => {
    const assistant: OpenAI.Chat.ChatCompletionMessageParam = {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } },
        { id: 'c2', type: 'function', function: { name: 'read_file', arguments: '{"path":"b"}' } },
      ],
    };

    it('C07: throws when a user message sits between the tool messages of one turn', () => {
      const [first, second] = toOpenAIChatToolMessages([result('c1'), result('c2')]);
      const history: OpenAI.Chat.ChatCompletionMessageParam[] = [
        assistant,
        first!,
        { role: 'user', content: 'also look at this' },
        second!,
      ];
      expect(() => assertToolHistoryComplete(history)).toThrow(
        'tool call c2 (assistant message 0) has no tool message directly after it',
      );
    });

    it('C07: accepts the converter output, attachments after the last tool message included', () => {
      const image: ToolCallResult = {
        ...result('c2'),
        content: [{ type: 'image', mediaType: 'image/png', data: 'AAAA' }],
      };
      const history = [assistant, ...toOpenAIChatToolMessages([result('c1'), image])];
      expect(history.map((m) => m.role)).toEqual(['assistant', 'tool', 'tool', 'user']);
      expect(() => assertToolHistoryComplete(history)).not.toThrow();
    });
  });

  describe('with an OpenAI Responses input', () => {
    it('C07: throws for a function_call without its function_call_output', () => {
      const calls: OpenAI.Responses.ResponseInputItem[] = [
        { type: 'function_call', call_id: 'r1', name: 'read_file', arguments: '{}' },
        { type: 'function_call', call_id: 'r2', name: 'read_file', arguments: '{}' },
      ];
      expect(() =>
        assertToolHistoryComplete([...calls, ...toOpenAIResponsesToolOutputs([result('r1')])]),
      ).toThrow('function_call r2 (item 1) has 0 outputs');
      expect(() =>
        assertToolHistoryComplete([...calls, ...toOpenAIResponsesToolOutputs([result('r1'), result('r2')])]),
      ).not.toThrow();
    });
  });
});
