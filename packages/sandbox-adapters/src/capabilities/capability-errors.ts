/**
 * The one error every adapter throws for a lifecycle operation its vendor does not offer
 * (`capability_unsupported`), naming the adapters that do, and the argument checks the operations
 * share.
 * @module
 */
import {
  type SandboxCapabilities,
  type SandboxCapability,
  SandboxError,
  SandkitError,
  SandkitErrorCode,
} from '@sandkit/core';

/** sandkit's adapters that implement each capability (the README's vendor table says the same). */
export const capabilityOffers: Readonly<Record<SandboxCapability, readonly string[]>> = {
  pause: ['docker', 'e2b'],
  snapshot: ['local', 'docker', 'e2b'],
  fork: ['local', 'docker', 'e2b'],
  extendLifetime: ['e2b'],
};

const what: Record<SandboxCapability, string> = {
  pause: 'pause or resume',
  snapshot: 'snapshot',
  fork: 'fork',
  extendLifetime: 'extend the lifetime of',
};

/** SandboxError `capability_unsupported`: `adapter` cannot do `capability`; says which adapters can. */
export function capabilityUnsupported(adapter: string, capability: SandboxCapability): SandboxError {
  return new SandboxError({
    code: SandkitErrorCode.capabilityUnsupported,
    message: `the ${adapter} adapter cannot ${what[capability]} a sandbox (capabilities.${capability} is false); adapters that can: ${capabilityOffers[capability].join(', ')}`,
    details: { adapter, capability },
  });
}

/** `capabilities` with every operation `false` except those listed. */
export function capabilitiesOf(...offered: SandboxCapability[]): SandboxCapabilities {
  return {
    pause: offered.includes('pause'),
    snapshot: offered.includes('snapshot'),
    fork: offered.includes('fork'),
    extendLifetime: offered.includes('extendLifetime'),
  };
}

/**
 * Handle methods that throw `capability_unsupported` for the operations `capabilities` lacks; spread
 * them under an adapter's own methods.
 */
export function unsupportedLifecycle(adapter: string) {
  return {
    pause: async (): Promise<void> => {
      throw capabilityUnsupported(adapter, 'pause');
    },
    resume: async (): Promise<void> => {
      throw capabilityUnsupported(adapter, 'pause');
    },
    snapshot: async (): Promise<string> => {
      throw capabilityUnsupported(adapter, 'snapshot');
    },
    fork: async (): Promise<never[]> => {
      throw capabilityUnsupported(adapter, 'fork');
    },
    extendLifetime: async (): Promise<void> => {
      throw capabilityUnsupported(adapter, 'extendLifetime');
    },
  };
}

/** `count` when it is a positive integer. @throws SandkitError `invalid_option` */
export function checkedForkCount(count: number): number {
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `fork: count must be a positive integer number of sandboxes, got ${count}`,
    });
  }
  return count;
}
