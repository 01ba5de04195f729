/**
 * Turns a `--model` spec such as `anthropic:claude-sonnet-4-20250514` into an AI SDK language
 * model from the real provider package (`@ai-sdk/anthropic`, `@ai-sdk/openai`,
 * `@ai-sdk/openai-compatible`). Keys and base URLs come from the options first, then from the
 * provider's usual environment variables.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { LanguageModel } from 'ai';

/** The provider families a spec can name; `openai` is the Responses API, `openai-chat` Chat Completions. */
export type ModelProvider = 'anthropic' | 'openai' | 'openai-chat' | 'openai-compatible';

/** A model ready for `generateText`, with what it was made from. */
export interface ResolvedModel {
  /** The AI SDK model object. */
  model: LanguageModel;
  /** The provider family named by the spec. */
  provider: ModelProvider;
  /** The model id after the `provider:` prefix, as sent to the API. */
  modelId: string;
  /** The spec as given. */
  spec: string;
}

/** Options of {@link resolveModel}; each one wins over its environment variable. */
export interface ResolveModelOptions {
  /**
   * API base URL. Anthropic's must end in `/v1` (e.g. `http://127.0.0.1:8080/v1`); OpenAI's
   * likewise. Required for `openai-compatible`.
   * @default `ANTHROPIC_BASE_URL` / `OPENAI_BASE_URL` / `OPENAI_COMPATIBLE_BASE_URL`, else the vendor's URL
   */
  baseURL?: string;
  /** API key. @default `ANTHROPIC_API_KEY` / `OPENAI_API_KEY` / `OPENAI_COMPATIBLE_API_KEY` */
  apiKey?: string;
  /** Environment to read the variables from. @default `process.env` */
  env?: NodeJS.ProcessEnv;
  /** Fetch implementation handed to the provider (tests, proxies). @default global `fetch` */
  fetch?: typeof fetch;
}

const providers: readonly ModelProvider[] = ['anthropic', 'openai', 'openai-chat', 'openai-compatible'];
const forms =
  'anthropic:<model-id>, openai:<model-id> (Responses API), openai-chat:<model-id> (Chat Completions) or openai-compatible:<model-id> (with a base URL)';

/**
 * Resolves a model spec `<provider>:<model-id>`.
 *
 * - `anthropic:<id>` → `createAnthropic`; env `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`.
 * - `openai:<id>` → `createOpenAI(...).responses(id)`; env `OPENAI_API_KEY`, `OPENAI_BASE_URL`.
 * - `openai-chat:<id>` → `createOpenAI(...).chat(id)`; same env.
 * - `openai-compatible:<id>` → `createOpenAICompatible` (llama.cpp, vLLM, Ollama...); base URL
 *   required (`OPENAI_COMPATIBLE_BASE_URL`), key optional (`OPENAI_COMPATIBLE_API_KEY`).
 *
 * Nothing is sent over the network here.
 * @throws SandkitError `invalid_option` when the spec is not one of the forms above, when the
 *   anthropic/openai key is missing (the message names the variable), when `openai-compatible`
 *   has no base URL, or when a base URL is not an http(s) URL.
 */
export function resolveModel(spec: string, options: ResolveModelOptions = {}): ResolvedModel {
  const env = options.env ?? process.env;
  const colon = spec.indexOf(':');
  const prefix = colon < 0 ? '' : spec.slice(0, colon);
  const modelId = colon < 0 ? '' : spec.slice(colon + 1).trim();
  if (!(providers as readonly string[]).includes(prefix) || modelId === '') {
    throw invalid(`model "${spec}" is not a model spec; write ${forms}`, { spec });
  }
  const provider = prefix as ModelProvider;
  const fetchOption = options.fetch === undefined ? {} : { fetch: options.fetch };
  if (provider === 'anthropic') {
    const apiKey = requireKey(options.apiKey ?? env.ANTHROPIC_API_KEY, 'ANTHROPIC_API_KEY', spec);
    const baseURL = checkBaseURL(options.baseURL ?? env.ANTHROPIC_BASE_URL, spec);
    const anthropic = createAnthropic({
      apiKey,
      ...(baseURL === undefined ? {} : { baseURL }),
      ...fetchOption,
    });
    return { model: anthropic(modelId), provider, modelId, spec };
  }
  if (provider === 'openai' || provider === 'openai-chat') {
    const apiKey = requireKey(options.apiKey ?? env.OPENAI_API_KEY, 'OPENAI_API_KEY', spec);
    const baseURL = checkBaseURL(options.baseURL ?? env.OPENAI_BASE_URL, spec);
    const openai = createOpenAI({ apiKey, ...(baseURL === undefined ? {} : { baseURL }), ...fetchOption });
    const model = provider === 'openai' ? openai.responses(modelId) : openai.chat(modelId);
    return { model, provider, modelId, spec };
  }
  const baseURL = checkBaseURL(options.baseURL ?? env.OPENAI_COMPATIBLE_BASE_URL, spec);
  if (baseURL === undefined) {
    throw invalid(
      `model "${spec}" needs a base URL: pass --base-url http://host:port/v1 or set OPENAI_COMPATIBLE_BASE_URL`,
      { spec },
    );
  }
  const apiKey = options.apiKey ?? env.OPENAI_COMPATIBLE_API_KEY;
  const compatible = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL,
    ...(apiKey === undefined || apiKey === '' ? {} : { apiKey }),
    includeUsage: true,
    ...fetchOption,
  });
  return { model: compatible.chatModel(modelId), provider, modelId, spec };
}

function requireKey(key: string | undefined, variable: string, spec: string): string {
  if (key === undefined || key.trim() === '') {
    throw invalid(`model "${spec}" needs an API key: set ${variable} (or pass --api-key)`, {
      spec,
      variable,
    });
  }
  return key;
}

function checkBaseURL(baseURL: string | undefined, spec: string): string | undefined {
  if (baseURL === undefined || baseURL === '') return undefined;
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw invalid(
      `base URL "${baseURL}" for model "${spec}" is not a URL; write e.g. http://127.0.0.1:8080/v1`,
      {
        spec,
        baseURL,
      },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalid(`base URL "${baseURL}" for model "${spec}" must start with http:// or https://`, {
      spec,
      baseURL,
    });
  }
  return baseURL.replace(/\/+$/, '');
}

function invalid(message: string, details: Record<string, unknown>): SandkitError {
  return new SandkitError({ code: SandkitErrorCode.invalidOption, message, details });
}
