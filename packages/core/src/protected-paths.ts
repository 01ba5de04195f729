/**
 * The workspace paths a sandbox keeps read-only by default: what would run code on the host
 * user's next `git` command or shell (hooks, the repository's config with its `core.hooksPath`,
 * `core.fsmonitor` and aliases, shell start-up files).
 * @module
 */

/**
 * Paths relative to the workspace that stay read-only even though the workspace is writable:
 * `.git/hooks`, `.git/config`, and the shell rc files a shell started in the workspace (or with it
 * as `HOME`) reads. The tools refuse writes there (`protected_path`, `createCodingTools({ protectedPaths })`);
 * the local adapter's bubblewrap mode enforces
 * the same list for commands.
 */
export const defaultProtectedPaths: readonly string[] = [
  '.git/hooks',
  '.git/config',
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
];
