/**
 * Whether a normalised allowlist lets a connection to a host through.
 * @module
 */
import { BlockList, isIP } from 'node:net';
import type { NormalizedNetworkPolicy } from './network-policy.js';

/**
 * A matcher for `policy`: `true` for every host under `'all'`, none under `'none'`; under an
 * allowlist, an exact name, a subdomain of a `*.` entry, or an IP literal inside one of its blocks.
 * `host` may carry IPv6 brackets (`[::1]`); matching is case-insensitive and ignores a trailing dot.
 */
export function destinationMatcher(policy: NormalizedNetworkPolicy): (host: string) => boolean {
  if (policy.kind !== 'allow') return () => policy.kind === 'all';
  const blocks = new BlockList();
  for (const block of policy.blocks) blocks.addSubnet(block.address, block.prefix, block.family);
  const hosts = new Set(policy.hosts);
  return (rawHost) => {
    const host = rawHost
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1')
      .replace(/\.$/, '');
    const family = isIP(host);
    if (family !== 0) return blocks.check(host, family === 4 ? 'ipv4' : 'ipv6');
    return hosts.has(host) || policy.suffixes.some((suffix) => host.endsWith(suffix));
  };
}
