/**
 * Finds how a project runs its tests when run_tests gets no command: a `test` script in
 * package.json (`npm test`), pytest (pytest.ini, `[tool.pytest…]` in pyproject.toml,
 * `[tool:pytest]` in setup.cfg, conftest.py, or a tests/ directory with test_*.py files),
 * Cargo.toml (`cargo test`), go.mod (`go test ./...`), in that order. One exec lists the markers.
 * @module
 */
import type { SandboxClient } from '@sandkit/core';
import type { TestFramework } from '../parsers/test-output-types.js';

/** A detected test command and the runner it will print. */
export interface DetectedTestCommand {
  command: string;
  /** The runner, when known from the project (the parser then skips detection). */
  framework?: TestFramework;
  /** Why this command was chosen, for the result. */
  reason: string;
}

/** The command pytest is run with: every outcome in the short summary, no colour, no cache dir. */
export const pytestCommand = 'python3 -m pytest -rA --color=no -p no:cacheprovider';

const npmDefault = /no test specified/;

/** Detects the project's test command in `cwd` (absolute), or `undefined` when none is found. */
export async function detectTestCommand(
  client: SandboxClient,
  cwd: string,
): Promise<DetectedTestCommand | undefined> {
  const script = [
    'for f in package.json pytest.ini conftest.py Cargo.toml go.mod; do [ -f "$f" ] && echo "$f"; done',
    'grep -qs "^\\[tool\\.pytest" pyproject.toml && echo pyproject-pytest',
    'grep -qs "^\\[tool:pytest\\]" setup.cfg && echo setup-cfg-pytest',
    'for f in tests/test_*.py tests/*_test.py test/test_*.py; do [ -f "$f" ] && { echo tests-dir; break; }; done',
    'exit 0',
  ].join('\n');
  const found = new Set(
    (await client.exec(script, { cwd, maxOutputBytes: 4096 })).stdout.split('\n').filter(Boolean),
  );
  if (found.has('package.json')) {
    const test = await readTestScript(client, `${cwd}/package.json`);
    if (test !== undefined) {
      const framework = frameworkOfScript(test);
      return {
        command: 'npm test',
        ...(framework ? { framework } : {}),
        reason: `package.json test script: ${test}`,
      };
    }
  }
  for (const marker of ['pytest.ini', 'pyproject-pytest', 'setup-cfg-pytest', 'conftest.py', 'tests-dir']) {
    if (found.has(marker))
      return { command: pytestCommand, framework: 'pytest', reason: `pytest (${marker})` };
  }
  if (found.has('Cargo.toml'))
    return { command: 'cargo test --no-fail-fast --color never', framework: 'cargo', reason: 'Cargo.toml' };
  if (found.has('go.mod')) return { command: 'go test -v ./...', framework: 'go', reason: 'go.mod' };
  return undefined;
}

async function readTestScript(client: SandboxClient, path: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(new TextDecoder().decode(await client.readFile(path))) as {
      scripts?: Record<string, unknown>;
    };
    const test = manifest.scripts?.test;
    return typeof test === 'string' && test.trim() !== '' && !npmDefault.test(test) ? test : undefined;
  } catch {
    return undefined; // unreadable or invalid package.json: try the other runners
  }
}

/** The runner a package.json test script calls, when it names one. */
export function frameworkOfScript(script: string): TestFramework | undefined {
  // A reporter asked for JUnit XML (node's junit reporter, jest/vitest/mocha junit reporters)
  if (/--(?:test-)?reporter[= ](?:\S*[-/])?junit\b/.test(script)) return 'junit-xml';
  if (/\bvitest\b/.test(script)) return 'vitest';
  if (/\bjest\b/.test(script)) return 'jest';
  if (/\bmocha\b/.test(script)) return 'mocha';
  if (/\bnode\b.*--test\b/.test(script)) return 'node';
  return undefined;
}
