/** Scripted AI SDK models for the runner's tests: each call answers from the instance named in the prompt. */
import type { LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import type { SweBenchInstance } from '../../src/eval/load/swe-bench-instance.js';

/** What a script answers on call `turn` (0-based) of `instance`. */
export type TurnScript = (instance: SweBenchInstance, turn: number) => LanguageModelV3Content[];

const usage = {
  inputTokens: { total: 1000, noCache: 800, cacheRead: 200, cacheWrite: 0 },
  outputTokens: { total: 50, text: 40, reasoning: 10 },
};

/** A model that finds its instance by the `base_commit` in the prompt and answers `script(instance, turn)`. */
export function instanceModel(
  instances: readonly SweBenchInstance[],
  script: TurnScript,
): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      const first = JSON.stringify(options.prompt[0]);
      const instance = instances.find((i) => first.includes(i.base_commit));
      if (instance === undefined) throw new Error('no instance in the prompt');
      const turn = options.prompt.filter((m) => m.role === 'assistant').length;
      const content = script(instance, turn);
      return {
        content,
        finishReason: {
          unified: content.some((p) => p.type === 'tool-call') ? 'tool-calls' : 'stop',
          raw: undefined,
        },
        usage,
        warnings: [],
      };
    },
  });
}

/** Applies the gold patch with apply_diff, then answers. */
export const oracle: TurnScript = (instance, turn) =>
  turn === 0
    ? [
        {
          type: 'tool-call',
          toolCallId: 'c0',
          toolName: 'apply_diff',
          input: JSON.stringify({ diff: instance.patch }),
        },
      ]
    : [{ type: 'text', text: 'Applied the fix.' }];

/** Writes a file, then reads it forever. */
export const neverStops: TurnScript = (_instance, turn) =>
  turn === 0
    ? [
        {
          type: 'tool-call',
          toolCallId: 'w',
          toolName: 'write_file',
          input: JSON.stringify({ path: 'NOTES.txt', content: 'x\n' }),
        },
      ]
    : [
        {
          type: 'tool-call',
          toolCallId: `r${turn}`,
          toolName: 'read_file',
          input: JSON.stringify({ path: 'NOTES.txt' }),
        },
      ];

/** Tool calls with broken JSON, every time. */
export const malformed: TurnScript = (_instance, turn) => [
  { type: 'tool-call', toolCallId: `m${turn}`, toolName: 'read_file', input: '{"path": "README' },
];
