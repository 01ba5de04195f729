import {
  type SandboxAcquireOptions,
  SandboxError,
  type SandboxProvider,
  type SandboxSession,
  SandkitError,
  SandkitErrorCode,
} from '@sandkit/core';

/** Options of {@link createSandboxComposite}. */
export interface SandboxCompositeOptions {
  /**
   * - `'fallback'`: always try the providers in the given order.
   * - `'round-robin'`: start with the next provider on each acquire, then go round.
   * Either way, a provider whose `acquire()` fails with a `SandboxError` (vendor down, out of
   * capacity, pool exhausted) is skipped for the next one.
   * @default 'fallback'
   */
  policy?: 'fallback' | 'round-robin';
  /** Name of the composite itself. @default the providers' names joined with `|` */
  name?: string;
}

/**
 * Combines providers into one. The session that comes back is the serving provider's own, so its
 * `providerName` says which one served. Errors other than `SandboxError` (bad options, abort) are
 * thrown at once without trying the others.
 *
 * @throws SandkitError `invalid_option` when `providers` is empty.
 * @throws SandboxError `sandbox_unavailable` from `acquire()` when every provider failed; its
 *   `details.errors` lists each provider's error, `cause` is the last one.
 */
export function createSandboxComposite(
  providers: readonly SandboxProvider[],
  options: SandboxCompositeOptions = {},
): SandboxProvider {
  if (providers.length === 0) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: 'createSandboxComposite needs at least one provider',
    });
  }
  const policy = options.policy ?? 'fallback';
  if (policy !== 'fallback' && policy !== 'round-robin') {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `policy must be 'fallback' or 'round-robin', got ${String(policy)}`,
    });
  }
  const name = options.name ?? providers.map((p) => p.name).join('|');
  let next = 0;
  return {
    name,
    async acquire(acquireOptions?: SandboxAcquireOptions): Promise<SandboxSession> {
      const start = policy === 'round-robin' ? next++ % providers.length : 0;
      const errors: { provider: string; code: string; message: string }[] = [];
      let last: unknown;
      for (let i = 0; i < providers.length; i++) {
        const provider = providers[(start + i) % providers.length]!;
        try {
          return await provider.acquire(acquireOptions);
        } catch (error) {
          if (!SandboxError.isInstance(error)) throw error;
          errors.push({ provider: provider.name, code: error.code, message: error.message });
          last = error;
        }
      }
      throw new SandboxError({
        code: SandkitErrorCode.sandboxUnavailable,
        message: `every provider failed: ${errors.map((e) => `${e.provider}: ${e.code} (${e.message})`).join('; ')}`,
        cause: last,
        details: { errors },
      });
    },
    async close() {
      await Promise.all(providers.map((p) => p.close()));
    },
  };
}
