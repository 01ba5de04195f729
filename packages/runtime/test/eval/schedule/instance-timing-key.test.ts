import { describe, expect, it } from 'vitest';
import { type SweBenchInstance, sweBenchInstanceSchema } from '../../../src/eval/load/swe-bench-instance.js';
import { instanceTimingKey, timingSandboxName } from '../../../src/eval/schedule/instance-timing-key.js';

const instance: SweBenchInstance = sweBenchInstanceSchema.parse({
  instance_id: 'astropy__astropy-12907',
  repo: 'astropy/astropy',
  base_commit: 'd16bfe05a744909de4b27f5875fe0d4ed41ce607',
  patch: 'diff --git a/a.py b/a.py\n',
  test_patch: 'diff --git a/astropy/tests/test_a.py b/astropy/tests/test_a.py\n',
  FAIL_TO_PASS: '["astropy/tests/test_a.py::test_one"]',
  PASS_TO_PASS: '[]',
  version: '4.3',
});
const image = 'docker:swebench/sweb.eval.x86_64.astropy_1776_astropy-12907:latest';

describe('instanceTimingKey', () => {
  it('returns the same 64-hex key for the same instance on the same sandbox', () => {
    const key = instanceTimingKey(instance, image);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(instanceTimingKey(sweBenchInstanceSchema.parse({ ...instance }), image)).toBe(key);
  });

  it.each<{ name: string; other: SweBenchInstance; sandbox: string }>([
    {
      name: 'another test patch',
      other: { ...instance, test_patch: `${instance.test_patch}+x\n` },
      sandbox: image,
    },
    { name: 'another base commit', other: { ...instance, base_commit: 'a'.repeat(40) }, sandbox: image },
    { name: 'another version (another spec row)', other: { ...instance, version: '5.0' }, sandbox: image },
    { name: 'another image', other: instance, sandbox: 'docker:my/env:py311' },
    { name: 'another vendor', other: instance, sandbox: image.replace('docker:', 'e2b:') },
  ])('returns another key for $name', ({ other, sandbox }) => {
    expect(instanceTimingKey(other, sandbox)).not.toBe(instanceTimingKey(instance, image));
  });
});

describe('timingSandboxName', () => {
  const imageFor = () => 'swebench/sweb.eval.x86_64.astropy_1776_astropy-12907:latest';
  it.each<{ name: string; opts: Parameters<typeof timingSandboxName>[0]; expected: string }>([
    {
      name: 'a ready adapter',
      opts: {
        adapter: {
          name: 'my-vendor',
          create: async () => {
            throw new Error('unused');
          },
        },
        sandbox: 'local',
      },
      expected: 'adapter:my-vendor',
    },
    { name: 'the local sandbox', opts: { adapter: null, sandbox: 'local' }, expected: 'local' },
    { name: 'docker', opts: { adapter: null, sandbox: 'docker' }, expected: `docker:${imageFor()}` },
    { name: 'e2b', opts: { adapter: null, sandbox: 'e2b' }, expected: `e2b:${imageFor()}` },
  ])('names $name as $expected', ({ opts, expected }) => {
    expect(timingSandboxName(opts, { imageFor }, instance)).toBe(expected);
  });

  it('names an instance whose image name is malformed by the error, so it shares no key', () => {
    const bad = () => {
      throw new Error('unknown placeholder {x}');
    };
    expect(timingSandboxName({ adapter: null, sandbox: 'docker' }, { imageFor: bad }, instance)).toBe(
      'docker:unnamed (unknown placeholder {x})',
    );
  });
});
