import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** Vitest config of `sandkit conformance`: only the conformance suite. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: { include: ['conformance-suite.{ts,js}'], testTimeout: 60_000, hookTimeout: 120_000, pool: 'forks' },
});
