/**
 * Reads a pytest node id off a line without cutting it: parametrised ids such as
 * `tests/t.py::test_x[a b-x [1] - y]` contain spaces, brackets and ` - `, so the id runs to the
 * bracket that closes the parameter block, never to the first space.
 * @module
 */

/**
 * The index just past the node id that starts at `start` in `text`, or -1 when there is none.
 * No allocation: the parser slices only the ids it keeps. The id ends at the first space or tab,
 * unless a `[` comes before it: then at the end of the parameter block. Searched with `indexOf`
 * (V8 scans a string for one character much faster than a `charCodeAt` loop does).
 */
export function nodeIdEnd(text: string, start = 0): number {
  if (start >= text.length) return -1;
  let stop = text.indexOf(' ', start);
  if (stop < 0) stop = text.length;
  const tab = text.indexOf('\t', start);
  if (tab >= 0 && tab < stop) stop = tab;
  const open = text.indexOf('[', start);
  if (open >= 0 && open < stop) return parameterBlockEnd(text, open);
  return stop === start ? -1 : stop;
}

/** The parameter block starts at `open`; it ends at the `]` that balances it and is followed by a space or the end. */
function parameterBlockEnd(text: string, open: number): number {
  // Most blocks hold no other bracket: their first `]` balances them.
  const close = text.indexOf(']', open);
  if (close >= 0 && (close + 1 === text.length || text.charCodeAt(close + 1) === 32)) {
    const nested = text.indexOf('[', open + 1);
    if (nested < 0 || nested > close) return close + 1;
  }
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 91) depth++;
    else if (char === 93 /* ] */) {
      depth--;
      if (depth === 0 && (index + 1 === text.length || text.charCodeAt(index + 1) === 32)) return index + 1;
    }
  }
  // Unbalanced brackets inside the parameters: fall back to the last `]` that ends a word.
  for (let index = text.length - 1; index > open; index--) {
    if (text.charCodeAt(index) === 93 && (index + 1 === text.length || text.charCodeAt(index + 1) === 32))
      return index + 1;
  }
  return -1;
}

/** `{ id, rest }` for the node id at the start of `text`, or `undefined`. */
export function readNodeId(text: string): { id: string; rest: string } | undefined {
  const end = nodeIdEnd(text);
  return end < 0 ? undefined : { id: text.slice(0, end), rest: text.slice(end) };
}
