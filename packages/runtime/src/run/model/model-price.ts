/**
 * Model prices in USD per million tokens, from an operator's override or from tokenlens'
 * shipped catalogue, and the cost of a run's token usage.
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { anthropicModels } from 'tokenlens/providers/anthropic';
import { openaiModels } from 'tokenlens/providers/openai';
import type { ResolvedModel } from './resolve-model.js';

/** Prices in USD per million tokens (MTok). */
export interface ModelPrice {
  /** Uncached input tokens. */
  inputPerMTok: number;
  /** Output tokens (reasoning tokens included, as providers bill them). */
  outputPerMTok: number;
  /** Input tokens read from the prompt cache. Absent: billed at `inputPerMTok`. */
  cacheReadPerMTok?: number;
  /** Input tokens written to the prompt cache (Anthropic). Kept for reports; {@link costUsd} does not use it. */
  cacheWritePerMTok?: number;
}

const overrideKeys = {
  input: 'inputPerMTok',
  output: 'outputPerMTok',
  'cache-read': 'cacheReadPerMTok',
  'cache-write': 'cacheWritePerMTok',
} as const;
const overrideForm =
  'write input=<usd>,output=<usd>[,cache-read=<usd>][,cache-write=<usd>] in USD per million tokens, e.g. input=3,output=15,cache-read=0.3';

/**
 * Parses a price override such as `input=3,output=15,cache-read=0.3` (USD per million tokens).
 * `input` and `output` are required; `cache-read` and `cache-write` optional; each at most once.
 * @throws SandkitError `invalid_option` naming the bad part (unknown key, repeated key, a value
 *   that is not a non-negative number, a missing `input` or `output`) and the accepted form.
 */
export function parsePriceOverride(text: string): ModelPrice {
  const price: Partial<Record<(typeof overrideKeys)[keyof typeof overrideKeys], number>> = {};
  for (const rawPart of text.split(',')) {
    const part = rawPart.trim();
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (!Object.hasOwn(overrideKeys, key)) {
      throw invalid(
        `price "${text}": "${part}" has no known key (input, output, cache-read, cache-write); ${overrideForm}`,
      );
    }
    const field = overrideKeys[key as keyof typeof overrideKeys];
    if (price[field] !== undefined) throw invalid(`price "${text}": ${key} is given twice; ${overrideForm}`);
    const number = value === '' ? Number.NaN : Number(value);
    if (!Number.isFinite(number) || number < 0) {
      throw invalid(`price "${text}": ${key}="${value}" is not a non-negative number; ${overrideForm}`);
    }
    price[field] = number;
  }
  if (price.inputPerMTok === undefined || price.outputPerMTok === undefined) {
    throw invalid(`price "${text}" needs both input and output; ${overrideForm}`);
  }
  return { ...price, inputPerMTok: price.inputPerMTok, outputPerMTok: price.outputPerMTok };
}

interface CatalogueEntry {
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
}

/**
 * The list price of a model from tokenlens' shipped catalogue (`tokenlens/providers/anthropic`,
 * `tokenlens/providers/openai`, USD per million tokens), by exact model id only: no aliases,
 * no date stripping, no network. The catalogue shipped with tokenlens 1.3.1 ends at models
 * released 2025-09 (e.g. `claude-opus-4-1-20250805`, `gpt-5`); newer ids, and every
 * `openai-compatible` model, give `undefined`: pass an override (see {@link parsePriceOverride}).
 */
export function lookupModelPrice(
  resolved: Pick<ResolvedModel, 'provider' | 'modelId'>,
): ModelPrice | undefined {
  const models: Record<string, CatalogueEntry> | undefined =
    resolved.provider === 'anthropic'
      ? anthropicModels.models
      : resolved.provider === 'openai' || resolved.provider === 'openai-chat'
        ? openaiModels.models
        : undefined;
  if (models === undefined || !Object.hasOwn(models, resolved.modelId)) return undefined;
  const cost = models[resolved.modelId]?.cost;
  if (cost?.input === undefined || cost.output === undefined) return undefined;
  return {
    inputPerMTok: cost.input,
    outputPerMTok: cost.output,
    ...(cost.cache_read === undefined ? {} : { cacheReadPerMTok: cost.cache_read }),
    ...(cost.cache_write === undefined ? {} : { cacheWritePerMTok: cost.cache_write }),
  };
}

/**
 * Cost in USD of token usage as the AI SDK reports it (`LanguageModelUsage`): `inputTokens`
 * includes `cachedInputTokens`, so the uncached part is `inputTokens - cachedInputTokens`, billed at
 * `inputPerMTok`; the cached part is billed at `cacheReadPerMTok`, or at `inputPerMTok` when the
 * price has none; `outputTokens` at `outputPerMTok`. Absent counts are 0. Cache writes are not
 * priced separately (the AI SDK's usage does not split them out of `inputTokens`).
 */
export function costUsd(
  usage: { inputTokens?: number; outputTokens?: number; cachedInputTokens?: number },
  price: ModelPrice,
): number {
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cachedInputTokens ?? 0, input);
  const output = usage.outputTokens ?? 0;
  const cacheRate = price.cacheReadPerMTok ?? price.inputPerMTok;
  return (
    ((input - cached) * price.inputPerMTok + cached * cacheRate + output * price.outputPerMTok) / 1_000_000
  );
}

function invalid(message: string): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
