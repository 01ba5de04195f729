import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Command, Option } from 'commander';
import { execa } from 'execa';

/**
 * Registers `sandkit conformance --sandbox local|docker|e2b|http [--image IMG] [--base-url URL]`: runs the sandbox
 * conformance suite of `@sandkit/sandbox-adapters/conformance` against that adapter with vitest
 * (which must be installed, as it is in the workspace). The exit code is vitest's. `http` runs it
 * through the HTTP adapter against `--base-url` (a `sandkit serve`, token in SANDKIT_SERVE_TOKEN),
 * or, without one, against a server it starts in this process with a random token.
 */
export function registerConformanceCommand(program: Command): void {
  program
    .command('conformance')
    .description('Run the SandboxClient conformance suite against an adapter (needs vitest)')
    .addOption(
      new Option('--sandbox <kind>', 'adapter').choices(['local', 'docker', 'e2b', 'http']).default('local'),
    )
    .option('--image <image>', 'Docker image or E2B template')
    .option(
      '--base-url <url>',
      'for --sandbox http: the sandkit serve to test (token in SANDKIT_SERVE_TOKEN)',
    )
    .action(async (options: { sandbox: string; image?: string; baseUrl?: string }) => {
      const vitest = join(
        dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
        'vitest.mjs',
      );
      // `.ts` when run from source, `.js` once built.
      const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
      const config = fileURLToPath(new URL(`./conformance/vitest.config.${extension}`, import.meta.url));
      const run = await execa(process.execPath, [vitest, 'run', '--config', config], {
        stdio: 'inherit',
        reject: false,
        env: {
          SANDKIT_CONFORMANCE_SANDBOX: options.sandbox,
          ...(options.image ? { SANDKIT_CONFORMANCE_IMAGE: options.image } : {}),
          ...(options.baseUrl ? { SANDKIT_CONFORMANCE_BASE_URL: options.baseUrl } : {}),
        },
      });
      process.exitCode = run.exitCode ?? 1;
    });
}
