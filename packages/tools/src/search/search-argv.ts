import { rgIgnoreArgs } from '../workspace/ignore-rules.js';
import type { SearchFilesInput } from './search-files-schema.js';

/**
 * The argv of one search up to and including `--`: `… -e PATTERN --`, so a pattern starting with
 * `-` stays a pattern (one `-e` per Unicode normal form of it, see {@link patternForms}). The path operand (always explicit, `.` for the root) is appended by
 * `confinedSearchCommand`. rg: `--json`, `--sort path` when `sorted`, no config file, and the
 * shared ignore rules (hidden files searched, `.git` never, .gitignore also outside a repository:
 * `--no-require-git`; see workspace/ignore-rules.ts). grep (C locale, so a file
 * with invalid UTF-8 is still text): `-r -H -n -Z -I -s`, `-E` or `-F`; its `--include=GLOB`
 * matches base names only, so a glob with `/` filters nothing useful under the grep fallback;
 * grep skips `.git` but knows no ignore files.
 */
export function searchArgv(engine: 'rg' | 'grep', input: SearchFilesInput, sorted: boolean): string[] {
  const mode = input.outputMode ?? 'content';
  const contextLines = mode === 'content' && (input.context ?? 0) > 0 ? ['-C', String(input.context)] : [];
  if (engine === 'rg') {
    return [
      'rg',
      '--json',
      '--no-config',
      '--no-messages',
      ...rgIgnoreArgs,
      ...(input.fixedStrings ? ['-F'] : []),
      ...(input.ignoreCase ? ['-i'] : []),
      ...contextLines,
      ...(input.glob ? ['--glob', input.glob] : []),
      ...(sorted ? ['--sort', 'path'] : []),
      ...(mode === 'files_with_matches' ? ['--max-count', '1'] : []),
      ...patternArgs(input.pattern),
      '--',
    ];
  }
  // C locale: GNU grep takes a file with invalid UTF-8 for binary under a UTF-8 locale and -I would skip it
  return [
    'env',
    'LC_ALL=C',
    'grep',
    '-r',
    '-H',
    '-n',
    '-Z',
    '-I',
    '-s',
    '--exclude-dir=.git',
    input.fixedStrings ? '-F' : '-E',
    ...(input.ignoreCase ? ['-i'] : []),
    ...contextLines,
    ...(input.glob ? [`--include=${input.glob}`] : []),
    ...(mode === 'files_with_matches' ? ['-m', '1'] : []),
    ...patternArgs(input.pattern),
    '--',
  ];
}

/**
 * The argv of the skipped-file probe: `rg -l --null` with the same pattern, options and glob, but no
 * ignore files (`--no-ignore`), so the files it lists that the search did not are the ones a rule
 * skipped.
 */
export function skippedProbeArgv(input: SearchFilesInput): string[] {
  return [
    'rg',
    '--no-config',
    '--no-messages',
    '--files-with-matches',
    '--null',
    '--no-ignore',
    '--hidden',
    '--glob',
    '!.git',
    ...(input.fixedStrings ? ['-F'] : []),
    ...(input.ignoreCase ? ['-i'] : []),
    ...(input.glob ? ['--glob', input.glob] : []),
    ...patternArgs(input.pattern),
    '--',
  ];
}

/**
 * The pattern in each of its Unicode normal forms (as typed, NFC, NFD), so text stored decomposed
 * (files from macOS) matches a pattern typed composed, and the reverse: `-e P1 -e P2`.
 */
export function patternForms(pattern: string): string[] {
  return [...new Set([pattern, pattern.normalize('NFC'), pattern.normalize('NFD')])];
}

function patternArgs(pattern: string): string[] {
  return patternForms(pattern).flatMap((form) => ['-e', form]);
}
