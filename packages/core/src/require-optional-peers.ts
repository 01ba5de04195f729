/**
 * A vendor subpath (`@sandkit/sandbox-adapters/e2b`, `@sandkit/tools/s3`) whose vendor package is an
 * optional peer dependency: checks, before the subpath's modules load, that the package is
 * installed, so a missing one is a message that says what to install rather than Node's bare
 * `ERR_MODULE_NOT_FOUND`.
 * @module
 */
import { SandboxError } from './errors/sandbox-error.js';
import { SandkitErrorCode } from './errors/sandkit-error.js';

/** What {@link requireOptionalPeers} checks. */
export interface OptionalPeers {
  /** The subpath that needs them, e.g. `@sandkit/sandbox-adapters/e2b`. */
  subpath: string;
  /** Package names, e.g. `['e2b', '@e2b/code-interpreter']`. */
  packages: readonly string[];
  /** The install command to suggest, e.g. `npm install e2b@2 @e2b/code-interpreter@2`. */
  install: string;
  /**
   * Imports one package from the package that declares the peer: `(name) => import(name)` written
   * there (a bare import resolves from the importing file, and under pnpm only a package's own
   * dependencies and peers are visible to it).
   */
  load: (name: string) => Promise<unknown>;
}

/**
 * Imports each of `peers.packages` (they are loaded by the subpath anyway, so this costs nothing
 * extra) and reports every one that is not installed.
 * @throws SandboxError `sandbox_unavailable` naming the missing packages and the install command;
 *   `details.missing` lists them. Any other failure while loading a package is rethrown unchanged.
 */
export async function requireOptionalPeers(peers: OptionalPeers): Promise<void> {
  const missing: string[] = [];
  let firstCause: unknown;
  for (const name of peers.packages) {
    try {
      await peers.load(name);
    } catch (error) {
      if (!isNotFound(error, name)) throw error;
      missing.push(name);
      firstCause ??= error;
    }
  }
  if (missing.length === 0) return;
  const listed = missing.map((name) => `"${name}"`).join(' and ');
  throw new SandboxError({
    code: SandkitErrorCode.sandboxUnavailable,
    message: `${peers.subpath} needs ${listed} (optional peer ${missing.length === 1 ? 'dependency' : 'dependencies'}, not installed): ${peers.install}`,
    cause: firstCause,
    details: { missing, install: peers.install },
  });
}

/** Node's "package not found" for `name` itself (not for something `name` imports). */
function isNotFound(error: unknown, name: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(`'${name}'`)
  );
}
