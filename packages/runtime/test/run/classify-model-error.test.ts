import { APICallError } from '@ai-sdk/provider';
import { RetryError } from 'ai';
import { describe, expect, it } from 'vitest';
import { classifyModelError } from '../../src/run/model/classify-model-error.js';

function apiError(statusCode: number | undefined, responseBody?: string): APICallError {
  return new APICallError({
    message: `HTTP ${statusCode}`,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    ...(statusCode === undefined ? {} : { statusCode }),
    ...(responseBody === undefined ? {} : { responseBody }),
  });
}

describe('classifyModelError', () => {
  it.each([
    [429, undefined, 'rate_limit'],
    [500, undefined, 'server_error'],
    [529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'server_error'],
    [401, undefined, 'auth'],
    [403, undefined, 'auth'],
    [
      400,
      '{"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 208310 tokens > 200000 maximum"}}',
      'context_overflow',
    ],
    [
      400,
      '{"error":{"message":"maximum context length","code":"context_length_exceeded"}}',
      'context_overflow',
    ],
    [400, '{"error":{"code":400,"type":"exceed_context_size_error"}}', 'context_overflow'],
    [400, '{"error":{"message":"tools[0].name is invalid","type":"invalid_request_error"}}', 'other'],
    [404, undefined, 'other'],
    [undefined, undefined, 'other'],
  ] as const)('classifies HTTP %s (%s) as %s', (status, body, kind) => {
    expect(classifyModelError(apiError(status, body))).toBe(kind);
  });

  it("unwraps a RetryError to its last attempt's error", () => {
    const error = new RetryError({
      message: 'Failed after 3 attempts',
      reason: 'maxRetriesExceeded',
      errors: [apiError(500), apiError(500), apiError(429)],
    });
    expect(classifyModelError(error)).toBe('rate_limit');
  });

  it.each([new Error('socket hang up'), 'text', undefined])(
    'classifies a non-API error (%s) as other',
    (error) => {
      expect(classifyModelError(error)).toBe('other');
    },
  );
});
