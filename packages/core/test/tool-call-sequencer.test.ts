import { describe, expect, it } from 'vitest';
import type { ToolEffect } from '../src/define-tool.js';
import { createToolCallSequencer } from '../src/tool-call-sequencer.js';

/** Schedules one call per effect; each logs its start and end and takes `delays[i]` ms. */
async function runCalls(effects: (ToolEffect | undefined)[], delays: number[]): Promise<string[]> {
  const sequencer = createToolCallSequencer();
  const log: string[] = [];
  await Promise.allSettled(
    effects.map((effect, i) =>
      sequencer.schedule(effect, async () => {
        log.push(`start ${i}`);
        await new Promise((resolve) => setTimeout(resolve, delays[i]));
        log.push(`end ${i}`);
        if (i === 0) throw new Error('first call fails');
      }),
    ),
  );
  return log;
}

describe('createToolCallSequencer', () => {
  describe('when reads follow each other', () => {
    it('starts them together', async () => {
      const log = await runCalls(['read', 'read', 'read'], [30, 20, 10]);
      expect(log.slice(0, 3)).toEqual(['start 0', 'start 1', 'start 2']);
    });
  });

  describe('when a barrier sits between reads', () => {
    it('starts it after every earlier call ends and starts later calls after it ends', async () => {
      const log = await runCalls(['read', 'read', 'barrier', 'read', 'read'], [30, 10, 10, 10, 5]);
      expect(log.indexOf('start 2')).toBeGreaterThan(log.indexOf('end 0'));
      expect(log.indexOf('start 2')).toBeGreaterThan(log.indexOf('end 1'));
      expect(log.indexOf('start 3')).toBeGreaterThan(log.indexOf('end 2'));
      expect(log.slice(-4, -2)).toEqual(['start 3', 'start 4']);
    });
  });

  describe('when a tool has no declared effect', () => {
    it('treats the call as a barrier, and a failed call does not stop later ones', async () => {
      const log = await runCalls([undefined, 'read', undefined], [20, 5, 5]);
      expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
    });
  });
});
