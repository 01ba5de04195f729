import { SandboxError, SandkitError } from '@sandkit/core';
import { describe, expect, it } from 'vitest';
import { createAdapterProvider } from '../../src/provider/adapter-provider.js';
import { createCountingAdapter } from '../pool/counting-adapter.js';

describe('createAdapterProvider', () => {
  it('creates a sandbox per acquire and destroys it on release', async () => {
    const adapter = createCountingAdapter();
    const provider = createAdapterProvider(adapter);
    const session = await provider.acquire();
    expect(adapter.live).toBe(1);
    await session.release();
    expect(adapter.live).toBe(0);
    const error = await session.release().catch((e: unknown) => e);
    expect(SandkitError.isInstance(error) && error.code).toBe('already_released');
  });

  it('destroys sessions still out on close and refuses later acquires with pool_closed', async () => {
    const adapter = createCountingAdapter();
    const provider = createAdapterProvider(adapter);
    const session = await provider.acquire();
    await provider.close();
    expect(adapter.live).toBe(0);
    await session.release();
    const error = await provider.acquire().catch((e: unknown) => e);
    expect(SandboxError.isInstance(error) && error.code).toBe('pool_closed');
  });
});
