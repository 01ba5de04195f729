/**
 * Type test: the provider formats are assignable to the SDKs' own parameter types without casts.
 * `pnpm tsc -p tsconfig.json` checks this file; the runtime part checks the SDKs accept the values.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { ToolSet } from 'ai';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAISDKTools } from '../src/ai-sdk-tools.js';
import { toAnthropicToolResultMessage } from '../src/anthropic-tool-results.js';
import { toAnthropicTools } from '../src/anthropic-tools.js';
import { defineTool } from '../src/define-tool.js';
import { toOpenAIChatToolMessages } from '../src/openai-chat-tool-messages.js';
import { toOpenAIResponsesToolOutputs } from '../src/openai-responses-tool-outputs.js';
import { toOpenAITools } from '../src/openai-tools.js';
import type { ToolCallResult } from '../src/tool-call-result.js';

const tools = [
  defineTool({
    name: 'read_file',
    description: 'Read a file.',
    permission: 'read',
    inputSchema: z.object({ path: z.string(), limit: z.number().int().optional() }),
    outputSchema: z.object({ text: z.string() }),
    execute: async () => ({ text: '' }),
  }),
];
const results: ToolCallResult[] = [
  {
    callId: 't1',
    toolName: 'read_file',
    isError: false,
    content: [
      { type: 'text', text: 'x' },
      { type: 'image', mediaType: 'image/png', data: 'AAAA' },
      { type: 'document', mediaType: 'application/pdf', data: 'AAAA', title: 'a.pdf' },
    ],
  },
];

describe('provider format types', () => {
  it('assigns tool lists to Anthropic.Tool[], ChatCompletionTool[], Responses FunctionTool[] and ToolSet', () => {
    const anthropic: Anthropic.Tool[] = toAnthropicTools(tools);
    const anthropicUnion: Anthropic.ToolUnion[] = toAnthropicTools(tools);
    const chat: OpenAI.Chat.ChatCompletionTool[] = toOpenAITools(tools, { api: 'chat' });
    const chatStrict: OpenAI.Chat.ChatCompletionTool[] = toOpenAITools(tools, { api: 'chat', strict: true });
    const responses: OpenAI.Responses.FunctionTool[] = toOpenAITools(tools, { api: 'responses' });
    const responsesTools: OpenAI.Responses.Tool[] = toOpenAITools(tools, { api: 'responses', strict: true });
    const aiSdk: ToolSet = toAISDKTools(tools);
    expect(
      [anthropic, anthropicUnion, chat, chatStrict, responses, responsesTools].map((l) => l.length),
    ).toEqual([1, 1, 1, 1, 1, 1]);
    expect(Object.keys(aiSdk)).toEqual(['read_file']);
  });

  it('assigns the result converters to the SDKs message param types', () => {
    const anthropicMessage: Anthropic.MessageParam = toAnthropicToolResultMessage(results, { text: 'go on' });
    const anthropicBlocks: Anthropic.ToolResultBlockParam[] = toAnthropicToolResultMessage(
      results,
    ).content.filter((block) => block.type === 'tool_result');
    const chatMessages: OpenAI.Chat.ChatCompletionMessageParam[] = toOpenAIChatToolMessages(results);
    const responsesInput: OpenAI.Responses.ResponseInput = toOpenAIResponsesToolOutputs(results);
    const responsesItems: OpenAI.Responses.ResponseInputItem.FunctionCallOutput[] =
      toOpenAIResponsesToolOutputs(results);
    expect(anthropicMessage.role).toBe('user');
    // the `calls` option takes each SDK's own assistant output as it comes back
    const answerAnthropic = (message: Anthropic.Message) =>
      toAnthropicToolResultMessage(results, { calls: message.content });
    const answerChat = (message: OpenAI.Chat.ChatCompletionMessage) =>
      toOpenAIChatToolMessages(results, { calls: message.tool_calls ?? [] });
    const answerResponses = (response: OpenAI.Responses.Response) =>
      toOpenAIResponsesToolOutputs(results, { calls: response.output });
    const toolUse: Anthropic.ToolUseBlock = {
      type: 'tool_use',
      id: 't1',
      name: 'read_file',
      input: {},
      caller: { type: 'direct' },
    };
    expect(answerAnthropic({ content: [toolUse] } as Anthropic.Message).content).toHaveLength(1);
    expect([answerChat, answerResponses]).toHaveLength(2);
    expect(anthropicBlocks).toHaveLength(1);
    expect(chatMessages.map((m) => m.role)).toEqual(['tool', 'user']);
    expect(responsesInput).toEqual(responsesItems);
  });
});
