import { join, resolve } from 'node:path';
import { SandkitError } from '@sandkit/core';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveDurationsCacheDir } from '../../../src/eval/schedule/durations-cache-dir.js';

const saved = process.env.SANDKIT_DURATIONS_CACHE;
afterEach(() => {
  if (saved === undefined) delete process.env.SANDKIT_DURATIONS_CACHE;
  else process.env.SANDKIT_DURATIONS_CACHE = saved;
});

describe('resolveDurationsCacheDir', () => {
  it.each<{ name: string; option: string | false | undefined; env: string | undefined; dir: string | null }>([
    {
      name: 'no option and no variable',
      option: undefined,
      env: undefined,
      dir: '/home/u/.cache/sandkit/durations',
    },
    { name: 'the variable', option: undefined, env: 'rel/cache', dir: resolve('rel/cache') },
    { name: 'the variable set to off', option: undefined, env: 'off', dir: null },
    { name: 'an option beside the variable', option: '/tmp/d', env: 'off', dir: '/tmp/d' },
    { name: 'the option false', option: false, env: '/tmp/e', dir: null },
  ])('with $name, returns $dir', ({ option, env, dir }) => {
    if (env === undefined) delete process.env.SANDKIT_DURATIONS_CACHE;
    else process.env.SANDKIT_DURATIONS_CACHE = env;
    expect(resolveDurationsCacheDir(option, join('/home/u', '.cache'))).toBe(dir);
  });

  it('throws SandkitError invalid_option for an empty path', () => {
    expect(() => resolveDurationsCacheDir('', '/home/u/.cache')).toThrow(
      expect.objectContaining({
        code: 'invalid_option',
        message: expect.stringContaining('--no-durations-cache'),
      }),
    );
    expect(() => resolveDurationsCacheDir('', '/home/u/.cache')).toThrow(SandkitError);
  });
});
