import { describe, expect, it } from 'vitest';
import { logWindowLimits, windowLog } from '../../../src/view/load/window-log.js';

const lines = (n: number): string[] => Array.from({ length: n }, (_, i) => `line ${i + 1} ${'x'.repeat(60)}`);
const bytes = (text: string[]): number => Buffer.byteLength(`${text.join('\n')}\n`);

describe('windowLog', () => {
  describe('when the log is small', () => {
    it('embeds it whole as one window', () => {
      const log = windowLog(['a', 'b'], 4, [], 'instances/x/test_output.txt');
      expect(log).toEqual({
        totalLines: 2,
        totalBytes: 4,
        whole: true,
        href: 'instances/x/test_output.txt',
        windows: [{ startLine: 1, lines: ['a', 'b'] }],
      });
    });
  });

  describe('when the log is over the whole-log budget', () => {
    it('keeps the head, a window around each deciding line and the tail, merged where they touch', () => {
      const text = lines(2000);
      const log = windowLog(text, bytes(text), [500, 503, 1990], null);
      expect(log.whole).toBe(false);
      const { headLines, tailLines, contextLines } = logWindowLimits;
      expect(log.windows.map((w) => [w.startLine, w.startLine + w.lines.length - 1])).toEqual([
        [1, headLines],
        [500 - contextLines, 503 + contextLines],
        [2000 - tailLines + 1, 2000],
      ]);
      expect(log.windows[1]?.lines[contextLines]).toBe(text[499]);
    });

    it('stops adding windows at the line budget and keeps the tail', () => {
      const text = lines(20_000);
      const deciding = Array.from({ length: 500 }, (_, i) => 30 + i * 30);
      const log = windowLog(text, bytes(text), deciding, null);
      const embedded = log.windows.reduce((sum, w) => sum + w.lines.length, 0);
      expect(embedded).toBeLessThanOrEqual(logWindowLimits.maxLines);
      expect(log.windows.at(-1)?.lines.at(-1)).toBe(text.at(-1));
    });

    it('cuts a long line, saying how much is left out', () => {
      const long = 'y'.repeat(logWindowLimits.maxLineChars + 10);
      const text = [...lines(400), long];
      const log = windowLog(text, bytes(text), [401], null);
      expect(log.windows.at(-1)?.lines.at(-1)).toBe(
        `${'y'.repeat(logWindowLimits.maxLineChars)} … (10 more characters)`,
      );
    });
  });
});
