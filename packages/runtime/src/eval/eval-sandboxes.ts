/**
 * Sandboxes for an evaluation: one pooled provider (`createPooledSandboxProvider`) per image,
 * over the local, Docker or E2B adapter. Every instance gets a fresh sandbox (released with
 * `destroy: true`); one quota shared by the pools caps how many live at once.
 * @module
 */
import type { SandboxAdapter, SandboxProvider } from '@sandkit/core';
import type { SandboxConfinement } from './sandbox-confinement.js';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { createPooledSandboxProvider } from '../pool/pooled-sandbox-provider.js';
import { createSandboxQuota } from '../pool/sandbox-quota.js';
import type { CheckoutMode } from './instance/checkout-instance.js';
import type { SweBenchInstance } from './load/swe-bench-instance.js';
import { type ImageNaming, instanceImageName } from './sandbox/official-image.js';

/** Sandbox vendors `sandkit eval` can use. */
export type EvalSandboxKind = 'local' | 'docker' | 'e2b';

/** Options of {@link createEvalSandboxes}. */
export interface EvalSandboxesOptions extends SandboxConfinement {
  kind: EvalSandboxKind;
  /** Image (Docker) or template (E2B) for instances without their own `image`; `null` = by `naming`. */
  image: string | null;
  /** How an instance's image is named when neither its row nor `image` gives one (the official names by default). */
  naming: ImageNaming;
  /** A ready adapter to use instead of `kind` (tests, custom vendors); `image` is then ignored. */
  adapter: SandboxAdapter | null;
  /** Sandboxes alive at once (in use, being created or destroyed) over every pool of the run: the vendor's quota. */
  maxSandboxes: number;
  /** Creates sent per second at most over every pool of the run: the vendor's creation rate limit. @default Infinity */
  createsPerSecond?: number;
  /** Per-instance budget in ms; also the pool's acquire timeout and the E2B sandbox lifetime. */
  timeoutMs: number;
  /** Makes the adapter of one image when `adapter` is `null`. @default the `kind`'s adapter for the image */
  adapterFor?: (image: string | null) => Promise<SandboxAdapter>;
}

/** The providers of one run. */
export interface EvalSandboxes {
  /** How working trees get in: `clone` when sandboxes share the host's file system (local), else `archive`. */
  readonly sharesHostFiles: boolean;
  /** The image (Docker) or template (E2B) an instance runs in: its `image`, else the run's, else the official name; `null` for local. */
  imageFor(instance: SweBenchInstance): string | null;
  /**
   * The provider for an instance (by {@link EvalSandboxes.imageFor}).
   * @throws SandkitError `invalid_option` when an image template is malformed.
   */
  forInstance(instance: SweBenchInstance): Promise<SandboxProvider>;
  /** Closes every pool, destroying every sandbox. */
  close(): Promise<void>;
}

/**
 * Creates the providers lazily, one per image, sharing one {@link createSandboxQuota} of
 * `maxSandboxes`: SWE-bench's official images are one per instance, so a cap per pool would not
 * cap the run.
 */
export function createEvalSandboxes(options: EvalSandboxesOptions): EvalSandboxes {
  const pools = new Map<string, Promise<SandboxProvider>>();
  const quota = createSandboxQuota(options.maxSandboxes, {
    createsPerSecond: options.createsPerSecond ?? Number.POSITIVE_INFINITY,
  });
  const pool = async (image: string | null): Promise<SandboxProvider> => {
    const adapter =
      options.adapter ??
      (await (options.adapterFor ?? ((name) => makeAdapter(options.kind, name, options.timeoutMs, options)))(
        image,
      ));
    return createPooledSandboxProvider({
      adapter,
      min: 0,
      max: options.maxSandboxes,
      quota,
      acquireTimeoutMs: options.timeoutMs,
      // a vendor's transient create failures and quota refusals are retried, not turned into instance errors
      createAttempts: 4,
    });
  };
  const imageFor = (instance: SweBenchInstance): string | null =>
    options.kind === 'local' || options.adapter !== null
      ? null
      : (instance.image ?? options.image ?? instanceImageName(instance, options.naming));
  return {
    sharesHostFiles: options.adapter === null ? options.kind === 'local' : options.adapter.name === 'local',
    imageFor,
    forInstance(instance) {
      let image: string | null;
      try {
        image = imageFor(instance);
      } catch (error) {
        return Promise.reject(error);
      }
      const key = image ?? '';
      let provider = pools.get(key);
      if (provider === undefined) {
        provider = pool(image);
        pools.set(key, provider);
      }
      return provider;
    },
    async close() {
      const providers = await Promise.allSettled(pools.values());
      await Promise.allSettled(
        providers.flatMap((settled) => (settled.status === 'fulfilled' ? [settled.value.close()] : [])),
      );
    },
  };
}

/** The checkout mode for `requested` (`auto`: `clone` when {@link EvalSandboxes.sharesHostFiles}, else `in-place`). */
export function resolveCheckoutMode(
  requested: CheckoutMode | 'auto',
  sandboxes: EvalSandboxes,
): CheckoutMode {
  if (requested !== 'auto') return requested;
  return sandboxes.sharesHostFiles ? 'clone' : 'in-place';
}

async function makeAdapter(
  kind: EvalSandboxKind,
  image: string | null,
  timeoutMs: number,
  confinement: SandboxConfinement,
): Promise<SandboxAdapter> {
  const network = confinement.network === undefined ? {} : { network: confinement.network };
  if (kind === 'local')
    return createLocalSandboxAdapter({ isolation: confinement.isolation ?? 'none', ...network });
  if (kind === 'e2b') {
    const { createE2BSandboxAdapter } = await import('@sandkit/sandbox-adapters/e2b');
    return createE2BSandboxAdapter({
      ...(image === null ? {} : { template: image }),
      timeoutMs: timeoutMs + 60_000,
      ...network,
    });
  }
  const { createDockerSandboxAdapter } = await import('@sandkit/sandbox-adapters/docker');
  return createDockerSandboxAdapter({ image: image as string, ...network });
}
