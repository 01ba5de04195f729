import { type AssistantToolCalls, assertToolResultsComplete } from './assert-tool-results-complete.js';
import type { ToolCallResult } from './tool-call-result.js';
import {
  emptyResultText,
  isProviderImageType,
  toDataUrl,
  unsupportedImageNote,
} from './tool-content-media.js';

/** A part of a `function_call_output` (assignable to `OpenAI.Responses.ResponseFunctionCallOutputItem`). */
export type OpenAIResponsesOutputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

/** A Responses `function_call_output` input item (assignable to `OpenAI.Responses.ResponseInputItem`). */
export interface OpenAIResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  /** A string for text-only results; parts when the result holds images or PDFs. */
  output: string | OpenAIResponsesOutputPart[];
}

/** Options of {@link toOpenAIResponsesToolOutputs}. */
export interface OpenAIResponsesToolOutputsOptions {
  /**
   * The response's `output` items (or the call ids). When given, the results are checked against its
   * `function_call` items and put in their order. @default no check; results in the given order
   */
  calls?: AssistantToolCalls;
}

/**
 * One `function_call_output` item per result, in order. Text-only results are a string; results with
 * images or PDFs are a list of `input_text` / `input_image` / `input_file` parts (data URLs), which the
 * Responses API takes in function outputs. An image of a type OpenAI does not take is replaced by a text
 * saying it was omitted. Error results start with "Error: ".
 *
 * @throws SandkitError `incomplete_tool_results` when `options.calls` is given and a call has no result,
 *   several, or a result answers no call.
 */
export function toOpenAIResponsesToolOutputs(
  results: readonly ToolCallResult[],
  options: OpenAIResponsesToolOutputsOptions = {},
): OpenAIResponsesFunctionCallOutput[] {
  const ordered = options.calls === undefined ? results : assertToolResultsComplete(options.calls, results);
  return ordered.map((result) => ({
    type: 'function_call_output',
    call_id: result.callId,
    output: toOutput(result),
  }));
}

function toOutput(result: ToolCallResult): string | OpenAIResponsesOutputPart[] {
  const parts: OpenAIResponsesOutputPart[] = [];
  for (const part of result.content) {
    if (part.type === 'text') {
      if (part.text !== '') parts.push({ type: 'input_text', text: part.text });
    } else if (part.type === 'image') {
      parts.push(
        isProviderImageType(part.mediaType)
          ? { type: 'input_image', image_url: toDataUrl(part.mediaType, part.data), detail: 'auto' }
          : { type: 'input_text', text: unsupportedImageNote(part.mediaType, 'OpenAI') },
      );
    } else {
      parts.push({
        type: 'input_file',
        file_data: toDataUrl(part.mediaType, part.data),
        filename: part.title ?? 'document.pdf',
      });
    }
  }
  const prefix = result.isError ? 'Error: ' : '';
  if (parts.every((part) => part.type === 'input_text')) {
    const text = parts.map((part) => part.text).join('\n');
    return prefix + (text === '' ? emptyResultText : text);
  }
  if (prefix !== '') parts.unshift({ type: 'input_text', text: 'Error:' });
  return parts;
}
