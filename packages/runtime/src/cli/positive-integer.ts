/**
 * `positiveInteger`: commander's argument parser for options that take a count (`--workers`,
 * `--jobs`).
 * @module
 */
import { InvalidArgumentError } from 'commander';

/**
 * `value` as an integer ≥ 1.
 * @throws InvalidArgumentError (commander's; a usage error) for anything else
 */
export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a positive integer');
  return n;
}
