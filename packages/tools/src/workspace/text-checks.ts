/**
 * Checks of the strings a model sends that every tool shares: no NUL byte where a shell, a path or
 * a revision must carry the string, and no lone UTF-16 surrogate where the string becomes bytes.
 * @module
 */

/** `true` when `value` holds no NUL byte. */
export const hasNoNul = (value: string): boolean => !value.includes('\0');

/** `true` when `value` holds no lone UTF-16 surrogate (half of a pair, e.g. a cut emoji). */
// In a `u` regex a surrogate pair is one code point, so only a lone surrogate matches.
export const isWellFormedText = (value: string): boolean => !/\p{Surrogate}/u.test(value);

/**
 * The message for a `field` holding a lone surrogate: it has no UTF-8 form, so writing it would
 * put U+FFFD in its place, bytes the model did not send.
 */
export function loneSurrogateMessage(field: string): string {
  return `${field} holds a lone UTF-16 surrogate (half of a pair, e.g. a cut emoji), which has no UTF-8 form and would be written as U+FFFD; send well-formed Unicode`;
}
