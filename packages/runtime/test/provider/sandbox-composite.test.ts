import { SandboxError, type SandboxProvider, SandkitError, SandkitErrorCode } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { describe, expect, it } from 'vitest';
import { createPooledSandboxProvider } from '../../src/pool/pooled-sandbox-provider.js';
import { createAdapterProvider } from '../../src/provider/adapter-provider.js';
import { createSandboxComposite } from '../../src/provider/sandbox-composite.js';
import { createCountingAdapter } from '../pool/counting-adapter.js';

function downProvider(
  name: string,
  error: unknown = new SandboxError({
    code: SandkitErrorCode.sandboxUnavailable,
    message: `${name} is down`,
  }),
): SandboxProvider & { calls: number } {
  const provider = {
    name,
    calls: 0,
    async acquire() {
      provider.calls++;
      throw error;
    },
    async close() {},
  };
  return provider;
}

describe('createSandboxComposite', () => {
  describe("with policy 'fallback'", () => {
    it('falls back to the next provider when acquire fails with a SandboxError and reports who served', async () => {
      const down = downProvider('e2b');
      const local = createAdapterProvider(createLocalSandboxAdapter(), { name: 'local' });
      const composite = createSandboxComposite([down, local], { policy: 'fallback' });
      const session = await composite.acquire();
      expect(session.providerName).toBe('local');
      const result = await session.client.exec('echo served');
      expect(result.stdout).toBe('served\n');
      await session.release();
      expect(down.calls).toBe(1);
      await composite.close();
    });

    it('falls back when a pool is exhausted', async () => {
      const small = createPooledSandboxProvider({
        adapter: createCountingAdapter(),
        name: 'small',
        max: 1,
        acquireTimeoutMs: 20,
      });
      const spare = createPooledSandboxProvider({ adapter: createCountingAdapter(), name: 'spare', max: 1 });
      const composite = createSandboxComposite([small, spare]);
      const first = await composite.acquire();
      const second = await composite.acquire();
      expect([first.providerName, second.providerName]).toEqual(['small', 'spare']);
      await first.release();
      await second.release();
      await composite.close();
    });

    it('throws sandbox_unavailable listing every provider when all fail', async () => {
      const composite = createSandboxComposite([downProvider('a'), downProvider('b')]);
      const error = await composite.acquire().catch((e: unknown) => e);
      expect(SandboxError.isInstance(error) && error.code).toBe('sandbox_unavailable');
      expect((error as SandboxError).details.errors).toHaveLength(2);
      expect((error as SandboxError).message).toContain('a: sandbox_unavailable');
    });

    it('does not try the next provider for an error that is not a SandboxError', async () => {
      const broken = downProvider(
        'broken',
        new SandkitError({ code: SandkitErrorCode.invalidOption, message: 'bad option' }),
      );
      const other = downProvider('other');
      const composite = createSandboxComposite([broken, other]);
      const error = await composite.acquire().catch((e: unknown) => e);
      expect(SandkitError.isInstance(error) && error.code).toBe('invalid_option');
      expect(other.calls).toBe(0);
    });
  });

  describe("with policy 'round-robin'", () => {
    it('starts each acquire at the next provider', async () => {
      const a = createPooledSandboxProvider({ adapter: createCountingAdapter(), name: 'a', max: 2 });
      const b = createPooledSandboxProvider({ adapter: createCountingAdapter(), name: 'b', max: 2 });
      const composite = createSandboxComposite([a, b], { policy: 'round-robin' });
      const sessions = [await composite.acquire(), await composite.acquire(), await composite.acquire()];
      expect(sessions.map((s) => s.providerName)).toEqual(['a', 'b', 'a']);
      for (const s of sessions) await s.release();
      await composite.close();
    });
  });

  it('rejects an empty provider list with invalid_option', () => {
    expect(() => createSandboxComposite([])).toThrow(/at least one provider/);
  });
});
