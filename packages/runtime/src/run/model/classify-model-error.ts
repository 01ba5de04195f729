/**
 * Sorts what `generateText` threw into the few kinds a run acts on differently: wait and retry
 * (`rate_limit`, `server_error`), stop the instance (`context_overflow`), stop the run (`auth`).
 */
import { APICallError } from '@ai-sdk/provider';
import { RetryError } from 'ai';

/** What went wrong talking to the model. */
export type ModelErrorKind = 'rate_limit' | 'server_error' | 'context_overflow' | 'auth' | 'other';

/**
 * Marks of a prompt longer than the model's context window in an HTTP 400 body:
 * Anthropic `{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}}`,
 * OpenAI `{"error":{"code":"context_length_exceeded",...}}`, llama.cpp server
 * `{"error":{"code":400,"type":"exceed_context_size_error",...}}`.
 */
const contextOverflowMarks = ['prompt is too long', 'context_length_exceeded', 'exceed_context_size_error'];

/**
 * Classifies an error thrown by the AI SDK's `generateText` / `streamText` (or a provider model).
 *
 * A `RetryError` is unwrapped to its `lastError` first: after the retries run out, generateText
 * throws `RetryError` with reason `maxRetriesExceeded` (`@ai-sdk/provider-utils`
 * src/retry-with-exponential-backoff.ts:101-106), whose `lastError` is the last attempt's error
 * (`ai` src/util/retry-error.ts:35). A non-retryable error on the first try is thrown unwrapped
 * (same file, :133-134). Then an `APICallError` (`@ai-sdk/provider` src/errors/api-call-error.ts:7,
 * `statusCode` :12, `responseBody` :15) is read by status:
 * 429 → `rate_limit`; ≥ 500 → `server_error`; 401/403 → `auth`; 400 whose body carries Anthropic's
 * `prompt is too long`, OpenAI's `context_length_exceeded` or llama.cpp's
 * `exceed_context_size_error` → `context_overflow`. Anything else → `other`.
 */
export function classifyModelError(error: unknown): ModelErrorKind {
  const last = RetryError.isInstance(error) ? error.lastError : error;
  if (!APICallError.isInstance(last)) return 'other';
  const status = last.statusCode;
  if (status === undefined) return 'other';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server_error';
  if (status === 401 || status === 403) return 'auth';
  if (status === 400) {
    const body = `${last.responseBody ?? ''}\n${last.message}`;
    if (contextOverflowMarks.some((mark) => body.includes(mark))) return 'context_overflow';
  }
  return 'other';
}
