/**
 * POSIX shell quoting. Every command sandkit builds from model-supplied values goes through these,
 * so a value can never become shell syntax.
 * @module
 */

const safe = /^[A-Za-z0-9_\-+=.,/:@%^]+$/;

/**
 * Quotes one argument for POSIX `sh`: left bare when it only has safe characters, otherwise
 * wrapped in single quotes with each `'` written as `'\''`.
 * @throws RangeError when the argument contains a NUL byte (no shell argument can hold one)
 */
export function quoteShellArgument(argument: string): string {
  if (argument.includes('\0')) throw new RangeError('a shell argument cannot contain a NUL byte');
  if (argument !== '' && safe.test(argument)) return argument;
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

/** Joins an argv array into one `sh -c` command line, quoting each element. */
export function formatCommand(argv: readonly string[]): string {
  return argv.map(quoteShellArgument).join(' ');
}
