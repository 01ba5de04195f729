import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCommand, quoteShellArgument } from '../src/shell-quote.js';

/** Runs `sh -c 'printf %s <quoted>'` for real and returns what the shell printed. */
function printedBySh(value: string): string {
  const run = spawnSync('/bin/sh', ['-c', `printf %s ${quoteShellArgument(value)}`], { encoding: 'buffer' });
  expect(run.status).toBe(0);
  return run.stdout.toString('utf8');
}

const nasty = [
  "it's",
  '$(touch /tmp/pwned)',
  '`id`',
  '"; rm -rf / #',
  'a\nb',
  '*',
  '-n',
  '',
  ' ',
  '\\',
  "'",
  "''",
  'é😀',
  '~',
];

describe('quoteShellArgument', () => {
  it.each(nasty)('round-trips %j through a real sh', (value) => {
    expect(printedBySh(value)).toBe(value);
  });

  it('round-trips any string without NUL through a real sh (property, sampled)', () => {
    const noNul = fc
      .string({ unit: 'binary', maxLength: 30 })
      .filter((s) => !s.includes('\0') && !/[\uD800-\uDFFF]/.test(s));
    fc.assert(
      fc.property(noNul, (value) => {
        expect(printedBySh(value)).toBe(value);
      }),
      { numRuns: 60 },
    );
  });

  it('leaves safe words bare and quotes everything else', () => {
    expect(quoteShellArgument('src/a-b_c.ts')).toBe('src/a-b_c.ts');
    expect(quoteShellArgument("it's")).toBe(`'it'\\''s'`);
    expect(quoteShellArgument('')).toBe(`''`);
  });

  it('throws a RangeError for a NUL byte', () => {
    expect(() => quoteShellArgument('a\0b')).toThrow(RangeError);
  });
});

describe('formatCommand', () => {
  it('keeps every argv element one argument, whatever it holds', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 10 }).filter((s) => !s.includes('\0')),
          { maxLength: 5 },
        ),
        (argv) => {
          const run = spawnSync(
            '/bin/sh',
            ['-c', `for a in ${formatCommand(argv)}; do printf '%s\\0' "$a"; done`],
            {
              encoding: 'utf8',
            },
          );
          expect(run.stdout).toBe(argv.map((a) => `${a}\0`).join(''));
        },
      ),
      { numRuns: 30 },
    );
  });

  it('joins the quoted arguments with spaces, with -- kept bare', () => {
    expect(formatCommand(['rg', '--', '-e x', "a'b"])).toBe(`rg -- '-e x' 'a'\\''b'`);
  });
});
