/**
 * Reads a pytest node id off the front of a line without cutting it: parametrised ids such as
 * `tests/t.py::test_x[a b-x [1] - y]` contain spaces, brackets and ` - `, so the id runs to the
 * bracket that closes the parameter block, never to the first space.
 * @module
 */

/** `{ id, rest }` where `rest` is what follows the id on the line, or `undefined` when none. */
export function readNodeId(text: string): { id: string; rest: string } | undefined {
  let index = 0;
  while (index < text.length) {
    const char = text.charCodeAt(index);
    if (char === 32 /* space */ || char === 9) break;
    if (char === 91 /* [ */) return readParameterBlock(text, index);
    index++;
  }
  if (index === 0) return undefined;
  return { id: text.slice(0, index), rest: text.slice(index) };
}

/** The parameter block starts at `open`; it ends at the `]` that balances it and is followed by a space or the end. */
function readParameterBlock(text: string, open: number): { id: string; rest: string } | undefined {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 91) depth++;
    else if (char === 93 /* ] */) {
      depth--;
      if (depth === 0 && (index + 1 === text.length || text.charCodeAt(index + 1) === 32)) {
        return { id: text.slice(0, index + 1), rest: text.slice(index + 1) };
      }
    }
  }
  // Unbalanced brackets inside the parameters: fall back to the last `]` that ends a word.
  for (let index = text.length - 1; index > open; index--) {
    if (text.charCodeAt(index) === 93 && (index + 1 === text.length || text.charCodeAt(index + 1) === 32)) {
      return { id: text.slice(0, index + 1), rest: text.slice(index + 1) };
    }
  }
  return undefined;
}
