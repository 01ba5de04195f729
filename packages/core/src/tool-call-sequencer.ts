import type { ToolEffect } from './define-tool.js';

/**
 * Runs tool calls as if one after another in the order they are handed in, while letting pure reads
 * overlap: a `'read'` call starts once every earlier barrier has finished; a `'barrier'` call starts
 * once every earlier call (read or barrier) has finished, and every later call waits for it.
 */
export interface ToolCallSequencer {
  /**
   * Queues `run` behind the calls handed in before it and returns its outcome (a rejection of `run`
   * is passed on; it does not stop later calls).
   * @param effect the call's {@link ToolEffect}; `undefined` (an unknown tool) counts as `'barrier'`.
   */
  schedule<T>(effect: ToolEffect | undefined, run: () => Promise<T>): Promise<T>;
}

/**
 * A fresh {@link ToolCallSequencer}. Share one across the calls whose written order must hold: one
 * per `executeToolCalls` call, or one per tool set in the AI SDK loop, which starts the `execute` of
 * a step's calls in the order the model wrote them and then runs them concurrently.
 */
export function createToolCallSequencer(): ToolCallSequencer {
  /** Settles when the last barrier, and everything before it, has settled. */
  let lastBarrier: Promise<void> = Promise.resolve();
  /** Reads queued since the last barrier, settled or not. */
  let readsSinceBarrier: Promise<void>[] = [];
  return {
    schedule(effect, run) {
      if (effect === 'read') {
        const result = lastBarrier.then(run);
        const settled = result.then(ignore, ignore);
        readsSinceBarrier.push(settled);
        return result;
      }
      const before = Promise.all([lastBarrier, ...readsSinceBarrier]);
      const result = before.then(run);
      lastBarrier = result.then(ignore, ignore);
      readsSinceBarrier = [];
      return result;
    },
  };
}

function ignore(): void {}
