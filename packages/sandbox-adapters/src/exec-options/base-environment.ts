/**
 * The environment every adapter's commands start from.
 * @module
 */

/**
 * The non-interactive base environment every command starts from, on every adapter (the caller's
 * `env` wins): no colour, a dumb terminal, no git prompts or pagers, and a UTF-8 C locale so that
 * the output sandkit's tools parse does not change with the host's language.
 */
export const baseEnvironment: Readonly<Record<string, string>> = {
  NO_COLOR: '1',
  TERM: 'dumb',
  GIT_TERMINAL_PROMPT: '0',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  LC_ALL: 'C.UTF-8',
};
