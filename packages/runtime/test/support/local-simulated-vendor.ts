/**
 * The simulated vendor over a local adapter at a given root, with its injected faults off unless
 * asked for: the construction the pool, instance, scale and vendor tests share.
 * @module
 */
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import {
  createSimulatedVendorAdapter,
  type SimulatedVendorAdapter,
  type SimulatedVendorOptions,
} from './simulated-vendor-adapter.js';

/**
 * Options of {@link createLocalSimulatedVendor}: those of the simulated vendor without `inner`,
 * with the fault rates optional.
 */
export type LocalSimulatedVendorOptions = Omit<
  SimulatedVendorOptions,
  'inner' | 'createFailureRate' | 'expiryRate' | 'expiryLastCall'
> &
  Partial<Pick<SimulatedVendorOptions, 'createFailureRate' | 'expiryRate' | 'expiryLastCall'>>;

/**
 * Creates the simulated vendor over `createLocalSandboxAdapter({ root })`. `createFailureRate`
 * and `expiryRate` default to 0 (no injected fault) and `expiryLastCall` to 2 (it matters only
 * when `expiryRate` is above 0).
 */
export function createLocalSimulatedVendor(
  root: string,
  options: LocalSimulatedVendorOptions,
): SimulatedVendorAdapter {
  return createSimulatedVendorAdapter({
    inner: createLocalSandboxAdapter({ root }),
    createFailureRate: 0,
    expiryRate: 0,
    expiryLastCall: 2,
    ...options,
  });
}
