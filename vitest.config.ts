import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Tests run the packages from source: the `@sandkit/source` export condition (see each package's
 * `exports`) resolves `@sandkit/*` to `src/*.ts` instead of the built `dist/`.
 */
const conditions = [
  '@sandkit/source',
  // Node's own resolution, not a bundler's: the AWS SDK's exports list `module` (extensionless ESM
  // for bundlers) before `node`, and Node cannot load that
  ...defaultServerConditions.filter((condition) => condition !== 'module'),
];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@sandkit/source'] } },
  test: {
    include: ['packages/*/test/**/*.test.ts', 'examples/test/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // runEval's durations cache would otherwise be ~/.cache/sandkit/durations, shared by every
    // test and the user: tests that test it give it a temp dir of their own
    env: { SANDKIT_DURATIONS_CACHE: 'off' },
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.ci/vitest-report.json' },
  },
});
