/** A scripted AI SDK 6 model for agent tests: each model call returns the next scripted step. */
import type { LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';

export type ScriptedStep =
  | LanguageModelV3Content[]
  | ((options: LanguageModelV3CallOptions) => LanguageModelV3Content[]);

export function toolCall(
  toolCallId: string,
  toolName: string,
  input: Record<string, unknown>,
): LanguageModelV3Content {
  return { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) };
}

export function text(value: string): LanguageModelV3Content {
  return { type: 'text', text: value };
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 4, text: 4, reasoning: 0 },
};

export function scriptedModel(steps: ScriptedStep[]): MockLanguageModelV3 {
  let next = 0;
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const step = steps[next++];
      if (step === undefined) throw new Error(`the script has only ${steps.length} steps`);
      const content = typeof step === 'function' ? step(options) : step;
      const calls = content.some((part) => part.type === 'tool-call');
      return {
        content,
        finishReason: { unified: calls ? 'tool-calls' : 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
}

/** The tool results the model was sent in its latest prompt, in order, as `[toolCallId, text]`. */
export function lastToolResults(
  options: LanguageModelV3CallOptions,
): Array<{ id: string; type: string; text: string }> {
  const results: Array<{ id: string; type: string; text: string }> = [];
  const last = options.prompt.at(-1);
  if (last?.role !== 'tool') return results;
  for (const part of last.content) {
    if (part.type !== 'tool-result') continue;
    results.push({ id: part.toolCallId, type: part.output.type, text: JSON.stringify(part.output) });
  }
  return results;
}
