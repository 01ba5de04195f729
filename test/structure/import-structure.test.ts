/**
 * The import structure of packages/*\/src, read by dependency-cruiser with the repository's
 * .dependency-cruiser.cjs: no circle of files or folders, the package layers (core ← tools,
 * sandbox-adapters ← runtime), and inside sandbox-adapters each vendor's transport/ below its
 * sandbox floor, vendors apart, shared folders below every vendor.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../..');
const config = join(repo, '.dependency-cruiser.cjs');
const depcruise = join(repo, 'node_modules/.bin/depcruise');

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}
interface CruiseResult {
  modules: { source: string; dependencies: { resolved: string }[] }[];
  summary: { violations: Violation[]; totalCruised: number };
}

/** Runs the depcruise CLI in `cwd` on `paths` and returns its JSON result. */
async function cruise(cwd: string, paths: string[]): Promise<CruiseResult> {
  const run = await execa(depcruise, ['--config', config, '--output-type', 'json', ...paths], {
    cwd,
    reject: false,
  });
  if (run.stdout.trim() === '')
    throw new Error(`depcruise printed nothing (exit ${run.exitCode}): ${run.stderr}`);
  return JSON.parse(run.stdout) as CruiseResult;
}

function describeViolation(violation: Violation): string {
  const cycle = violation.cycle?.map((step) => step.name).join(' → ');
  return `${violation.rule.name}: ${violation.from} → ${violation.to}${cycle ? ` (${cycle})` : ''}`;
}

describe('the import structure of packages/*/src', () => {
  it('has no circle, no import running back up and no layer crossed', async () => {
    const packages = ['core', 'tools', 'sandbox-adapters', 'runtime'].map((name) => `packages/${name}/src`);
    const result = await cruise(repo, packages);
    expect(result.summary.violations.map(describeViolation)).toEqual([]);
    expect(result.summary.totalCruised).toBeGreaterThan(300);
    // The package rules see through `@sandkit/*` imports only when they resolve to source files.
    const runtimeToCore = result.modules
      .filter((module) => module.source.startsWith('packages/runtime/src/'))
      .flatMap((module) => module.dependencies)
      .filter((dependency) => dependency.resolved.startsWith('packages/core/src/'));
    expect(runtimeToCore.length).toBeGreaterThan(0);
  });

  describe('when a tree breaks a rule', () => {
    let tree: string;
    let violations: string[];
    /** `path` → what it imports (relative specifiers, `.js` as the repository writes them). */
    const files: Record<string, string[]> = {
      'packages/core/src/index.ts': ['../../tools/src/index.js'],
      'packages/tools/src/index.ts': ['../../sandbox-adapters/src/capture/log.js'],
      'packages/sandbox-adapters/src/capture/log.ts': ['../docker/docker-exec.js'],
      'packages/sandbox-adapters/src/docker/docker-exec.ts': [
        './transport/engine.js',
        '../local/local-exec.js',
      ],
      'packages/sandbox-adapters/src/docker/transport/engine.ts': ['../docker-state.js'],
      'packages/sandbox-adapters/src/docker/docker-state.ts': [],
      'packages/sandbox-adapters/src/local/local-exec.ts': ['./local-files.js'],
      'packages/sandbox-adapters/src/local/local-files.ts': ['./local-exec.js'],
      'packages/runtime/src/agent/agent-loop.ts': ['../pool/pool.js'],
      'packages/runtime/src/agent/agent-step.ts': [],
      'packages/runtime/src/pool/pool.ts': [],
      'packages/runtime/src/pool/pool-health.ts': ['../agent/agent-step.js'],
    };

    beforeAll(async () => {
      tree = await mkdtemp(join(tmpdir(), 'sandkit-structure-'));
      for (const [path, imports] of Object.entries(files)) {
        await mkdir(dirname(join(tree, path)), { recursive: true });
        const body = imports
          .map((specifier, index) => `import * as m${index} from '${specifier}';\n`)
          .join('');
        const uses = imports.map((_, index) => `m${index}`).join(', ');
        await writeFile(join(tree, path), `${body}export const used = [${uses}];\n`);
      }
      await writeFile(
        join(tree, 'tsconfig.json'),
        JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
      );
      const result = await cruise(tree, ['packages']);
      violations = result.summary.violations.map(
        (violation) => `${violation.rule.name}: ${violation.from} → ${violation.to}`,
      );
    }, 60_000);
    afterAll(() => rm(tree, { recursive: true, force: true }));

    it.each([
      [
        'no-circular',
        'packages/sandbox-adapters/src/local/local-exec.ts → packages/sandbox-adapters/src/local/local-files.ts',
      ],
      ['core-imports-nothing-of-ours', 'packages/core/src/index.ts → packages/tools/src/index.ts'],
      [
        'tools-below-adapters-and-runtime',
        'packages/tools/src/index.ts → packages/sandbox-adapters/src/capture/log.ts',
      ],
      [
        'transport-below-sandbox',
        'packages/sandbox-adapters/src/docker/transport/engine.ts → packages/sandbox-adapters/src/docker/docker-state.ts',
      ],
      [
        'vendors-apart',
        'packages/sandbox-adapters/src/docker/docker-exec.ts → packages/sandbox-adapters/src/local/local-exec.ts',
      ],
      [
        'shared-below-vendors',
        'packages/sandbox-adapters/src/capture/log.ts → packages/sandbox-adapters/src/docker/docker-exec.ts',
      ],
      ['no-folder-circular', 'packages/runtime/src/agent → packages/runtime/src/pool'],
    ])('reports %s for %s', (rule, edge) => {
      expect(violations, violations.join('\n')).toContain(`${rule}: ${edge}`);
    });
  });
});
