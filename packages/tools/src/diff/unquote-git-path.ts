/**
 * Undoes git's C-style path quoting (`quote_c_style` in git's `quote.c`).
 *
 * Even with `core.quotePath=false`, git writes a path between double quotes with backslash escapes
 * when it holds `"`, `\`, a control character (tab, newline, …) — and, with the default
 * `core.quotePath=true`, any byte ≥ 0x80 as a three-digit octal escape (`"caf\303\251.txt"`).
 * @module
 */

const simpleEscapes: Record<string, number> = {
  a: 0x07,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
  v: 0x0b,
  '\\': 0x5c,
  '"': 0x22,
};

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Turns one C-quoted git path (`"a/say \"hi\".txt"`, `"caf\303\251.txt"`) into the real string.
 * Octal escapes are collected as bytes and decoded as UTF-8 together; a byte that is not part of
 * valid UTF-8 stays escaped as `\ooo`, so nothing is silently replaced by U+FFFD.
 *
 * A string that is not quoted (no leading and trailing `"`) is returned unchanged, and so is a
 * malformed quoted string (a dangling backslash or an unknown escape). Never throws.
 */
export function unquoteGitPath(path: string): string {
  if (path.length < 2 || !path.startsWith('"') || !path.endsWith('"')) return path;
  const bytes: number[] = [];
  for (const token of path.slice(1, -1).matchAll(/\\([abfnrtv\\"]|[0-3][0-7]{2})|([^\\"]+)|([\s\S])/gu)) {
    const [, escaped, plain] = token;
    if (escaped !== undefined) bytes.push(simpleEscapes[escaped] ?? Number.parseInt(escaped, 8));
    else if (plain !== undefined) for (const byte of encoder.encode(plain)) bytes.push(byte);
    else return path; // a dangling `\`, an unknown escape or a bare `"`: not one quoted name
  }
  return decodeKeepingInvalid(Uint8Array.from(bytes));
}

/** Decodes UTF-8, writing each byte that is not part of a valid sequence as a `\ooo` escape. */
function decodeKeepingInvalid(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    // fall through to the byte-by-byte walk below
  }
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i]!;
    const length =
      lead < 0x80 ? 1 : lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 ? 2 : 0;
    const sequence = length === 0 ? undefined : decodeOne(bytes.subarray(i, i + length), length);
    if (sequence === undefined) {
      out += `\\${lead.toString(8).padStart(3, '0')}`;
      i++;
    } else {
      out += sequence;
      i += length;
    }
  }
  return out;
}

function decodeOne(slice: Uint8Array, length: number): string | undefined {
  if (slice.length !== length) return undefined;
  try {
    return strictDecoder.decode(slice);
  } catch {
    return undefined;
  }
}
