/**
 * Converts a path glob to a POSIX extended regular expression (for `find -regextype
 * posix-extended -regex`, which must match the whole path): `*` any run within one path segment,
 * `**` any number of segments (`**​/` also none), `?` one character other than `/`, `[abc]` /
 * `[!abc]` a class, `{a,b}` alternatives. Everything else is literal; a character with another
 * Unicode normal form matches both (`é` as `(é|e\u0301)`), since names from macOS are NFD.
 * @module
 */

const special = new Set(['.', '+', '(', ')', '|', '^', '$', '\\', '{', '}', '[', ']', '*', '?']);

/**
 * The regex body for `glob` (no anchors). A leading `./` or `/` is ignored. Never throws: an
 * unclosed `[` or `{` is taken literally.
 */
export function globToRegex(glob: string): string {
  const source = glob.replace(/^(\.\/|\/)+/, '').normalize('NFC');
  let out = '';
  let braces = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '*') {
      if (source[i + 1] === '*') {
        const slash = source[i + 2] === '/';
        out += slash ? '(.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else out += '[^/]*';
    } else if (char === '?') {
      out += '[^/]';
    } else if (char === '[') {
      const close = source.indexOf(']', i + 2);
      if (close < 0) {
        out += '\\[';
        continue;
      }
      let body = source.slice(i + 1, close);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body.replaceAll('\\', '\\\\')}]`;
      i = close;
    } else if (char === '{' && source.indexOf('}', i) > i) {
      out += '(';
      braces++;
    } else if (char === '}' && braces > 0) {
      out += ')';
      braces--;
    } else if (char === ',' && braces > 0) {
      out += '|';
    } else if (char !== char.normalize('NFD')) {
      out += `(${char}|${char.normalize('NFD')})`;
    } else {
      out += special.has(char) ? `\\${char}` : char;
    }
  }
  return out;
}

/** Escapes a literal path for use inside a POSIX extended regex. */
export function escapeRegex(text: string): string {
  return [...text].map((char) => (special.has(char) ? `\\${char}` : char)).join('');
}
