import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { describe, expect, it } from 'vitest';
import { destinationMatcher } from '../../src/network/allows-destination.js';
import { normalizeNetworkPolicy } from '../../src/network/network-policy.js';

describe('normalizeNetworkPolicy', () => {
  describe('when the policy is bad', () => {
    it.each([
      [{ allow: ['*'] }, "write network: 'all' instead"],
      [{ allow: [] }, "write network: 'none'"],
      [{ allow: [''] }, 'empty entry'],
      [{ allow: ['10.0.0.0/33'] }, 'is not a CIDR block'],
      [{ allow: ['10.0.0/8'] }, 'is not a CIDR block'],
      [{ allow: ['https://registry.npmjs.org'] }, 'write its host alone'],
      [{ allow: ['registry.npmjs.org:443'] }, 'ports are not part of the policy'],
      [{ allow: ['bad host'] }, 'is not a host name'],
      ['some', "network must be 'none', 'all' or { allow"],
    ])('refuses %j with invalid_option saying %s', (policy, hint) => {
      expect(() => normalizeNetworkPolicy(policy as never)).toThrow(
        expect.objectContaining({ code: 'invalid_option', message: expect.stringContaining(hint) }),
      );
    });
  });

  it('fills all when absent and keeps the entries as written', () => {
    expect(normalizeNetworkPolicy(undefined)).toEqual({ kind: 'all' });
    expect(
      normalizeNetworkPolicy({ allow: ['Registry.npmjs.org', '*.pypi.org', '10.0.0.0/8'] }),
    ).toMatchObject({
      kind: 'allow',
      hosts: ['registry.npmjs.org'],
      suffixes: ['.pypi.org'],
    });
  });
});

describe('destinationMatcher', () => {
  const allows = destinationMatcher(
    normalizeNetworkPolicy({ allow: ['registry.npmjs.org', '*.pypi.org', '10.0.0.0/8', 'fd00::/8'] }),
  );
  it.each([
    ['registry.npmjs.org', true],
    ['REGISTRY.npmjs.org.', true],
    ['evil-registry.npmjs.org', false],
    ['files.pypi.org', true],
    ['pypi.org', false],
    ['pypi.org.evil.com', false],
    ['10.1.2.3', true],
    ['11.0.0.1', false],
    ['[fd00::1]', true],
    ['example.com', false],
  ])('%s → %s', (host, expected) => {
    expect(allows(host)).toBe(expected);
  });
});

describe('createLocalSandboxAdapter network', () => {
  it('refuses a policy without isolation with capability_unsupported', () => {
    expect(() => createLocalSandboxAdapter({ network: 'none' })).toThrow(
      expect.objectContaining({
        code: 'capability_unsupported',
        message: expect.stringContaining("isolation: 'bubblewrap'"),
      }),
    );
  });

  it('refuses a missing bwrap at create with sandbox_unavailable saying how to install it', async () => {
    const adapter = createLocalSandboxAdapter({
      isolation: 'bubblewrap',
      bubblewrap: { bwrapPath: '/nonexistent/bwrap' },
    });
    await expect(adapter.create()).rejects.toMatchObject({
      code: 'sandbox_unavailable',
      message: expect.stringContaining('apt-get install bubblewrap'),
    });
  });
});
