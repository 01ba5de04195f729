/**
 * Names that differ only in Unicode normalization. Files from macOS (a copied tree, an archive, a
 * repository committed there) keep decomposed (NFD) names on Linux, while a model, a keyboard or a
 * clipboard types the composed (NFC) form: the same visible name in other bytes, which an exact
 * lookup never finds. When a path does not exist, the entries of its deepest existing directory
 * are compared after NFC normalization; exactly one equal entry is taken in its place.
 * @module
 */
import { posix } from 'node:path';
import { formatCommand, type SandboxClient, SandkitErrorCode, ToolError } from '@sandkit/core';

/** `true` when `text` has a character outside ASCII (only such text has other normal forms). */
export function hasNonAscii(text: string): boolean {
  return /[^\u0000-\u007f]/.test(text);
}

/** `text` with every non-ASCII character as `\uXXXX`, so two normal forms can be told apart. */
export function escapeNonAscii(text: string): string {
  return [...text]
    .map((char) => {
      const point = char.codePointAt(0) ?? 0;
      return point < 0x80 ? char : `\\u${point.toString(16).padStart(4, '0')}`;
    })
    .join('');
}

const listScript = `d=$1
while [ ! -e "$d" ] && [ ! -L "$d" ]; do d=$(dirname -- "$d"); done
printf '%s\\0' "$d"
[ -d "$d" ] && find "$d" -mindepth 1 -maxdepth 1 -printf '%f\\0' 2>/dev/null | head -c 4000000
exit 0`;

/** A missing path's stand-in whose first missing component differs only in normalization. */
export interface NameTwin {
  /** Absolute lexical path with that component replaced by the entry that exists. */
  path: string;
  /** The component as asked, and as it is on disk. */
  asked: string;
  onDisk: string;
}

/**
 * The twin of the missing absolute `lexical` (see the module doc), or `undefined` when no entry
 * equals its first missing component after NFC normalization. One exec.
 * @throws ToolError `not_found` naming the look-alikes when more than one entry equals it.
 */
export async function findNameTwin(client: SandboxClient, lexical: string): Promise<NameTwin | undefined> {
  const result = await client.exec(`set -- ${formatCommand([lexical])}\n${listScript}`, {
    maxOutputBytes: 4 * 1024 * 1024,
  });
  const [dir, ...entries] = result.stdout.split('\0').slice(0, -1);
  if (dir === undefined || !lexical.startsWith(dir) || lexical === dir) return undefined;
  const rest = lexical.slice(dir === '/' ? 1 : dir.length + 1).split('/');
  const asked = rest[0] ?? '';
  const wanted = asked.normalize('NFC');
  const equal = entries.filter((entry) => entry !== asked && entry.normalize('NFC') === wanted);
  if (equal.length > 1) throw ambiguous(asked, equal);
  if (equal.length !== 1) return undefined;
  const onDisk = equal[0]!;
  return { path: posix.join(dir, onDisk, ...rest.slice(1)), asked, onDisk };
}

/** The notice for a path that was found through a twin name. */
export function twinNotice(twin: NameTwin): string {
  const form = twin.onDisk === twin.onDisk.normalize('NFD') ? 'decomposed, NFD' : 'another normal form';
  return `"${twin.asked}" matched the name on disk only after Unicode normalization: it is stored as "${escapeNonAscii(twin.onDisk)}" (${form}), you typed "${escapeNonAscii(twin.asked)}"; the file on disk was used`;
}

function ambiguous(asked: string, names: readonly string[]): ToolError {
  const listed = names
    .slice(0, 5)
    .map((name) => `"${escapeNonAscii(name)}"`)
    .join(', ');
  return new ToolError({
    code: SandkitErrorCode.notFound,
    message: `no name is "${asked}" byte for byte, and ${names.length} differ from it only in Unicode normalization: ${listed}; give the one you mean with these \\u escapes in the JSON string`,
    details: { path: asked, candidates: names.slice(0, 5) },
  });
}
