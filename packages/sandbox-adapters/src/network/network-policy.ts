/**
 * The network policy an adapter takes at `create`: `'none'`, `'all'`, or an allowlist of hosts,
 * host suffixes and CIDR blocks. Checked and normalised once here; every adapter either enforces
 * the normalised policy or refuses it with `capability_unsupported`, never ignores it.
 * @module
 */
import { isIP } from 'node:net';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/**
 * Where a sandbox's commands may connect.
 * - `'all'`: no restriction (the default of every adapter).
 * - `'none'`: no network at all (loopback inside the sandbox only).
 * - `{ allow }`: only these destinations, through an HTTP(S) proxy that the adapter runs: exact
 *   host names (`registry.npmjs.org`), subdomain wildcards (`*.pypi.org` matches `files.pypi.org`,
 *   not `pypi.org` itself), IP addresses and CIDR blocks (`10.0.0.0/8`, `fd00::/8`) that match a
 *   request made to an address literal. Host names are matched case-insensitively, without ports.
 */
export type NetworkPolicy = 'none' | 'all' | { readonly allow: readonly string[] };

/** A CIDR block of an allowlist. */
export interface AllowedBlock {
  /** As written, normalised (`10.0.0.0/8`). */
  readonly text: string;
  readonly address: string;
  readonly prefix: number;
  readonly family: 'ipv4' | 'ipv6';
}

/** A checked policy: {@link normalizeNetworkPolicy}'s result. */
export type NormalizedNetworkPolicy =
  | { readonly kind: 'none' }
  | { readonly kind: 'all' }
  | {
      readonly kind: 'allow';
      /** Exact host names, lower case. */
      readonly hosts: readonly string[];
      /** Wildcard suffixes with their leading dot (`.pypi.org` for `*.pypi.org`), lower case. */
      readonly suffixes: readonly string[];
      readonly blocks: readonly AllowedBlock[];
      /** The policy as written, for messages. */
      readonly entries: readonly string[];
    };

const hostLabel = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Checks `policy` and fills the default (`'all'` when absent).
 * @throws SandkitError `invalid_option` for anything else than `'none'`, `'all'` or `{ allow: string[] }`;
 *   for an empty allowlist (write `'none'`), `*` (write `'all'`), an empty entry, a URL or a port
 *   (write the host alone), a malformed host name or CIDR block. The message says what to write.
 */
export function normalizeNetworkPolicy(policy: NetworkPolicy | undefined): NormalizedNetworkPolicy {
  if (policy === undefined || policy === 'all') return { kind: 'all' };
  if (policy === 'none') return { kind: 'none' };
  if (typeof policy !== 'object' || policy === null || !Array.isArray(policy.allow)) {
    invalid(
      `network must be 'none', 'all' or { allow: ['registry.npmjs.org', '*.pypi.org', '10.0.0.0/8'] }, got ${JSON.stringify(policy)}`,
    );
  }
  if (policy.allow.length === 0)
    invalid(`network.allow is empty; write network: 'none' for no network, or list the hosts to allow`);
  const hosts: string[] = [];
  const suffixes: string[] = [];
  const blocks: AllowedBlock[] = [];
  for (const entry of policy.allow) {
    if (typeof entry !== 'string')
      invalid(`network.allow entries must be strings, got ${JSON.stringify(entry)}`);
    const text = entry.trim().toLowerCase();
    if (text === '')
      invalid(
        `network.allow holds an empty entry; remove it or write a host name such as 'registry.npmjs.org'`,
      );
    if (text === '*' || text === '*.*')
      invalid(`network.allow: ${JSON.stringify(entry)} allows every host; write network: 'all' instead`);
    if (text.includes('://'))
      invalid(
        `network.allow: ${JSON.stringify(entry)} is a URL; write its host alone (for example 'registry.npmjs.org')`,
      );
    if (text.includes('/')) {
      blocks.push(parseBlock(entry, text));
      continue;
    }
    if (isIP(text) !== 0) {
      const family = isIP(text) === 4 ? 'ipv4' : 'ipv6';
      blocks.push({ text, address: text, prefix: family === 'ipv4' ? 32 : 128, family });
      continue;
    }
    if (/:\d+$/.test(text))
      invalid(
        `network.allow: ${JSON.stringify(entry)} has a port; ports are not part of the policy, write the host alone`,
      );
    const wildcard = text.startsWith('*.');
    const name = wildcard ? text.slice(2) : text;
    const labels = name.split('.');
    if (!labels.every((label) => hostLabel.test(label)) || (wildcard && labels.length < 2)) {
      invalid(
        `network.allow: ${JSON.stringify(entry)} is not a host name; write 'example.com', '*.example.com' (its subdomains), an IP address or a CIDR block such as '10.0.0.0/8'`,
      );
    }
    if (wildcard) suffixes.push(`.${name}`);
    else hosts.push(name);
  }
  return { kind: 'allow', hosts, suffixes, blocks, entries: policy.allow.map((e) => e.trim()) };
}

function parseBlock(entry: string, text: string): AllowedBlock {
  const [address = '', prefixText = '', extra] = text.split('/');
  const family = isIP(address) === 4 ? 'ipv4' : isIP(address) === 6 ? 'ipv6' : undefined;
  const max = family === 'ipv4' ? 32 : 128;
  const prefix = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  if (family === undefined || extra !== undefined || !(prefix >= 0 && prefix <= max)) {
    invalid(
      `network.allow: ${JSON.stringify(entry)} is not a CIDR block; write an address and a prefix length, such as '10.0.0.0/8' (IPv4, 0–32) or 'fd00::/8' (IPv6, 0–128)`,
    );
  }
  return { text: `${address}/${prefix}`, address, prefix, family };
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}

/**
 * The `capability_unsupported` error of an adapter that cannot enforce `policy`.
 * @param adapter the adapter's name, shown in the message
 * @param instead what the user can do (another adapter or option), shown after the reason
 */
export function networkPolicyUnsupported(
  adapter: string,
  policy: NormalizedNetworkPolicy,
  instead: string,
): SandkitError {
  const shown = policy.kind === 'allow' ? `{ allow: [${policy.entries.join(', ')}] }` : `'${policy.kind}'`;
  return new SandkitError({
    code: SandkitErrorCode.capabilityUnsupported,
    message: `the ${adapter} adapter cannot enforce network: ${shown}; ${instead}`,
    details: { adapter, network: policy.kind },
  });
}
