import { describe, expect, it } from 'vitest';
import { toAnthropicToolResultMessage } from '../src/anthropic-tool-results.js';
import { toOpenAIChatToolMessages } from '../src/openai-chat-tool-messages.js';
import { toOpenAIResponsesToolOutputs } from '../src/openai-responses-tool-outputs.js';
import type { ToolCallResult } from '../src/tool-call-result.js';

const base64 = Buffer.from('not really a png, bytes are bytes').toString('base64');

/** The read_file result of C08. */
const diagram: ToolCallResult = {
  callId: 'call_d',
  toolName: 'read_file',
  isError: false,
  content: [
    { type: 'text', text: 'PNG 640x480, 12 KB' },
    { type: 'image', mediaType: 'image/png', data: base64 },
  ],
};
const bmp: ToolCallResult = {
  callId: 'call_b',
  toolName: 'read_file',
  isError: false,
  content: [{ type: 'image', mediaType: 'image/bmp', data: base64 }],
};
const pdf: ToolCallResult = {
  callId: 'call_p',
  toolName: 'read_file',
  isError: false,
  content: [{ type: 'document', mediaType: 'application/pdf', data: base64, title: 'spec.pdf' }],
};
const empty: ToolCallResult = {
  callId: 'call_e',
  toolName: 'exec',
  isError: false,
  content: [{ type: 'text', text: '' }],
};

describe('toAnthropicToolResultMessage', () => {
  it('C08: keeps the text block and puts an image block with a base64 source inside tool_result.content', () => {
    const message = toAnthropicToolResultMessage([diagram]);
    expect(message).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_d',
          is_error: false,
          content: [
            { type: 'text', text: 'PNG 640x480, 12 KB' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: base64 } },
          ],
        },
      ],
    });
  });

  it('C08: says so when an image type cannot be sent, sends PDFs as document blocks, and never sends empty text', () => {
    const message = toAnthropicToolResultMessage([bmp, pdf, empty]);
    expect(message.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'call_b',
        is_error: false,
        content: [
          {
            type: 'text',
            text: '[image omitted: Anthropic accepts only PNG, JPEG, GIF and WebP images, this one is image/bmp]',
          },
        ],
      },
      {
        type: 'tool_result',
        tool_use_id: 'call_p',
        is_error: false,
        content: [
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: base64 },
            title: 'spec.pdf',
          },
        ],
      },
      {
        type: 'tool_result',
        tool_use_id: 'call_e',
        is_error: false,
        content: [{ type: 'text', text: '(no output)' }],
      },
    ]);
  });
});

describe('toOpenAIChatToolMessages', () => {
  it('C08: sends only text in the tool message and the image in one user message after the last tool message', () => {
    const other: ToolCallResult = {
      callId: 'call_x',
      toolName: 'exec',
      isError: false,
      content: [{ type: 'text', text: 'ok' }],
    };
    const messages = toOpenAIChatToolMessages([diagram, other, pdf]);
    expect(messages).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_d',
        content: 'PNG 640x480, 12 KB\n[image (image/png) attached in the next message]',
      },
      { role: 'tool', tool_call_id: 'call_x', content: 'ok' },
      {
        role: 'tool',
        tool_call_id: 'call_p',
        content: '[PDF document "spec.pdf" attached in the next message]',
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Attachments of tool call call_d (read_file):' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } },
          { type: 'text', text: 'Attachments of tool call call_p (read_file):' },
          {
            type: 'file',
            file: { file_data: `data:application/pdf;base64,${base64}`, filename: 'spec.pdf' },
          },
        ],
      },
    ]);
  });

  it('C08: says an image was omitted when OpenAI cannot take its type, and adds no user message for it', () => {
    expect(toOpenAIChatToolMessages([bmp])).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_b',
        content: '[image omitted: OpenAI accepts only PNG, JPEG, GIF and WebP images, this one is image/bmp]',
      },
    ]);
  });

  it('marks error results with "Error: "', () => {
    const failed: ToolCallResult = {
      callId: 'c',
      toolName: 'exec',
      isError: true,
      content: [{ type: 'text', text: 'boom' }],
    };
    expect(toOpenAIChatToolMessages([failed])).toEqual([
      { role: 'tool', tool_call_id: 'c', content: 'Error: boom' },
    ]);
  });
});

describe('toOpenAIResponsesToolOutputs', () => {
  it('C08: carries the image inside the function_call_output as input_image and PDFs as input_file', () => {
    expect(toOpenAIResponsesToolOutputs([diagram, pdf, bmp, empty])).toEqual([
      {
        type: 'function_call_output',
        call_id: 'call_d',
        output: [
          { type: 'input_text', text: 'PNG 640x480, 12 KB' },
          { type: 'input_image', image_url: `data:image/png;base64,${base64}`, detail: 'auto' },
        ],
      },
      {
        type: 'function_call_output',
        call_id: 'call_p',
        output: [
          { type: 'input_file', file_data: `data:application/pdf;base64,${base64}`, filename: 'spec.pdf' },
        ],
      },
      {
        type: 'function_call_output',
        call_id: 'call_b',
        output: '[image omitted: OpenAI accepts only PNG, JPEG, GIF and WebP images, this one is image/bmp]',
      },
      { type: 'function_call_output', call_id: 'call_e', output: '(no output)' },
    ]);
  });
});
