#!/usr/bin/env node
// Runs the built CLI (dist/cli/main.js); inside the workspace, without a build, runs the
// TypeScript source through tsx.
import { existsSync } from 'node:fs';

const built = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
