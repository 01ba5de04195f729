import { SandkitError } from '@sandkit/core';
import { describe, expect, it } from 'vitest';
import { resolveModel } from '../../src/run/model/resolve-model.js';

function thrown(fn: () => unknown): SandkitError {
  try {
    fn();
  } catch (error) {
    if (SandkitError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('resolveModel', () => {
  describe('when the spec names a provider', () => {
    it.each([
      ['anthropic:claude-sonnet-4-20250514', 'anthropic', 'claude-sonnet-4-20250514', 'anthropic.messages'],
      ['openai:gpt-5', 'openai', 'gpt-5', 'openai.responses'],
      ['openai-chat:gpt-4o', 'openai-chat', 'gpt-4o', 'openai.chat'],
      ['openai-compatible:qwen3-coder:30b', 'openai-compatible', 'qwen3-coder:30b', 'openai-compatible.chat'],
    ])('resolves %s to the %s provider', (spec, provider, modelId, providerName) => {
      const resolved = resolveModel(spec, { apiKey: 'k', baseURL: 'http://127.0.0.1:9/v1', env: {} });
      expect(resolved).toMatchObject({ provider, modelId, spec });
      const model = resolved.model as { provider: string; modelId: string };
      expect(model.provider).toBe(providerName);
      expect(model.modelId).toBe(modelId);
    });

    it('reads the key from the environment', () => {
      expect(resolveModel('anthropic:claude-x', { env: { ANTHROPIC_API_KEY: 'k' } }).provider).toBe(
        'anthropic',
      );
      expect(resolveModel('openai-chat:gpt-x', { env: { OPENAI_API_KEY: 'k' } }).provider).toBe(
        'openai-chat',
      );
    });

    it('needs no key for openai-compatible', () => {
      const resolved = resolveModel('openai-compatible:m', {
        env: { OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:8080/v1' },
      });
      expect(resolved.modelId).toBe('m');
    });
  });

  describe('when something is missing or wrong', () => {
    it.each([
      ['anthropic:claude-x', 'ANTHROPIC_API_KEY'],
      ['openai:gpt-x', 'OPENAI_API_KEY'],
      ['openai-chat:gpt-x', 'OPENAI_API_KEY'],
    ])('refuses %s without a key, naming %s', (spec, variable) => {
      const error = thrown(() => resolveModel(spec, { env: {} }));
      expect(error.code).toBe('invalid_option');
      expect(error.message).toContain(variable);
    });

    it('refuses openai-compatible without a base URL', () => {
      const error = thrown(() => resolveModel('openai-compatible:m', { env: {} }));
      expect(error.code).toBe('invalid_option');
      expect(error.message).toMatch(/needs a base URL.*OPENAI_COMPATIBLE_BASE_URL/);
    });

    it.each(['gpt-4o', 'claude:sonnet', 'openai:', ''])(
      'refuses the spec "%s", listing the forms',
      (spec) => {
        const error = thrown(() => resolveModel(spec, { apiKey: 'k', env: {} }));
        expect(error.code).toBe('invalid_option');
        expect(error.message).toContain('anthropic:<model-id>, openai:<model-id>');
      },
    );

    it.each(['not a url', 'ftp://host/v1'])('refuses the base URL "%s"', (baseURL) => {
      const error = thrown(() => resolveModel('openai-chat:gpt-4o', { apiKey: 'k', baseURL, env: {} }));
      expect(error.code).toBe('invalid_option');
      expect(error.message).toContain(baseURL);
    });
  });
});
