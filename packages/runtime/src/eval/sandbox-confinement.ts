/**
 * How `sandkit eval` and `sandkit run` confine their sandboxes: the local adapter's isolation mode
 * and a network policy for any vendor (`--isolation`, `--network`), handed to the adapter, which
 * enforces the policy or refuses it (`capability_unsupported`).
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { LocalIsolation, NetworkPolicy } from '@sandkit/sandbox-adapters/local';

/** What the harness asks of each sandbox, beside its vendor. */
export interface SandboxConfinement {
  /** The local adapter's isolation. @default 'none' */
  isolation?: LocalIsolation;
  /** Where commands may connect. @default the adapter's own default ('all' local/E2B, 'none' Docker) */
  network?: NetworkPolicy;
}

/**
 * Reads `--network`: `none`, `all`, or a comma-separated allowlist
 * (`registry.npmjs.org,*.pypi.org,10.0.0.0/8`). The adapter checks each entry.
 * @throws SandkitError `invalid_option` for an empty value.
 */
export function parseNetworkFlag(text: string): NetworkPolicy {
  const value = text.trim();
  if (value === 'none' || value === 'all') return value;
  const allow = value.split(',').map((entry) => entry.trim());
  if (value === '' || allow.every((entry) => entry === '')) {
    throw new SandkitError({
      code: SandkitErrorCode.invalidOption,
      message: `--network must be none, all, or a comma-separated list of hosts such as registry.npmjs.org,*.pypi.org`,
    });
  }
  return { allow };
}
