import { formatCommand, type SandboxClient } from '@sandkit/core';

/**
 * Runs `git ARGS` in the sandbox for a test's setup: fixed identity (`Test <test@example.com>`),
 * `init.defaultBranch=main`, no global or system config.
 * @param cwd sandbox directory to run in; default the sandbox's workdir
 * @returns git's stdout, untrimmed
 * @throws Error naming the command and git's stderr on a non-zero exit
 */
export async function sandboxGit(client: SandboxClient, args: string[], cwd?: string): Promise<string> {
  const result = await client.exec(
    formatCommand([
      'git',
      '-c',
      'user.name=Test',
      '-c',
      'user.email=test@example.com',
      '-c',
      'init.defaultBranch=main',
      ...args,
    ]),
    {
      ...(cwd === undefined ? {} : { cwd }),
      env: { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    },
  );
  if (result.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}
