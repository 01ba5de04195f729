#!/usr/bin/env node
// The `sandkit` command: runs the built CLI (dist/cli/main.js) with plain node. Inside the sandkit
// repository, `pnpm sandkit ...` runs the TypeScript source instead (no build needed).
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write(
    'sandkit: the CLI is not built (dist/cli/main.js is missing). In the sandkit repository, run ' +
      '`pnpm sandkit ...` (runs from source) or build first with `pnpm build`.\n',
  );
  process.exitCode = 1;
}
