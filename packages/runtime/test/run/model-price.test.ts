import { SandkitError } from '@sandkit/core';
import { describe, expect, it } from 'vitest';
import { costUsd, lookupModelPrice, parsePriceOverride } from '../../src/run/model/model-price.js';

describe('parsePriceOverride', () => {
  it.each([
    ['input=3,output=15', { inputPerMTok: 3, outputPerMTok: 15 }],
    ['input=3,output=15,cache-read=0.3', { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3 }],
    [
      ' output=0.4 , input=0.1 ,cache-write=0.125',
      { inputPerMTok: 0.1, outputPerMTok: 0.4, cacheWritePerMTok: 0.125 },
    ],
    ['input=0,output=0', { inputPerMTok: 0, outputPerMTok: 0 }],
  ])('parses %s', (text, price) => {
    expect(parsePriceOverride(text)).toEqual(price);
  });

  it.each([
    ['input=3', /needs both input and output/],
    ['output=15', /needs both input and output/],
    ['input=3,output=15,cached=1', /"cached=1" has no known key/],
    ['input=3,output=15,input=4', /input is given twice/],
    ['input=three,output=15', /input="three" is not a non-negative number/],
    ['input=-1,output=15', /input="-1" is not a non-negative number/],
    ['input=,output=15', /input="" is not a non-negative number/],
    ['', /has no known key/],
  ])('refuses %s with invalid_option', (text, message) => {
    try {
      parsePriceOverride(text);
      expect.unreachable();
    } catch (error) {
      expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain('input=3,output=15,cache-read=0.3');
    }
  });
});

describe('lookupModelPrice', () => {
  it("returns tokenlens' list price for an exact Anthropic id", () => {
    expect(lookupModelPrice({ provider: 'anthropic', modelId: 'claude-sonnet-4-20250514' })).toEqual({
      inputPerMTok: 3,
      outputPerMTok: 15,
      cacheReadPerMTok: 0.3,
      cacheWritePerMTok: 3.75,
    });
  });

  it('returns the OpenAI price for both openai and openai-chat', () => {
    const price = { inputPerMTok: 2.5, outputPerMTok: 10, cacheReadPerMTok: 1.25 };
    expect(lookupModelPrice({ provider: 'openai', modelId: 'gpt-4o' })).toEqual(price);
    expect(lookupModelPrice({ provider: 'openai-chat', modelId: 'gpt-4o' })).toEqual(price);
  });

  it.each([
    ['anthropic', 'claude-sonnet-4'],
    ['anthropic', 'claude-sonnet-4-5-20250929'],
    ['openai', 'toString'],
    ['openai-compatible', 'gpt-4o'],
  ] as const)('returns undefined for %s:%s (no exact id in the catalogue)', (provider, modelId) => {
    expect(lookupModelPrice({ provider, modelId })).toBeUndefined();
  });
});

describe('costUsd', () => {
  const price = { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3 };

  it('bills uncached input, cached input and output at their rates', () => {
    // 800k uncached * $3 + 200k cached * $0.30 + 100k output * $15 = 2.4 + 0.06 + 1.5
    expect(
      costUsd({ inputTokens: 1_000_000, cachedInputTokens: 200_000, outputTokens: 100_000 }, price),
    ).toBeCloseTo(3.96, 10);
  });

  it('bills cached input at the input price when the price has no cache-read rate', () => {
    expect(
      costUsd({ inputTokens: 1_000_000, cachedInputTokens: 200_000 }, { inputPerMTok: 3, outputPerMTok: 15 }),
    ).toBeCloseTo(3, 10);
  });

  it('counts absent fields as zero', () => {
    expect(costUsd({}, price)).toBe(0);
    expect(costUsd({ outputTokens: 2000 }, price)).toBeCloseTo(0.03, 10);
  });
});
