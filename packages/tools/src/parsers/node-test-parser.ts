/**
 * node:test output, both reporters. TAP: `# Subtest: name` nesting, `ok N - name [# SKIP|# TODO]`,
 * suites recognised by `type: 'suite'` in their YAML block, counts from `# tests|pass|fail|skipped|
 * todo`. Spec: `▶ suite`, `✔`/`✖`/`﹣` lines nested by indentation, counts from `ℹ tests N` …;
 * the repeated `✖ failing tests:` list at the end is not read twice. Names join suites with ` > `.
 *
 * Failures outside any test count: a test file that fails to load is node's own failed test named
 * by the file's path, and gets the load error printed before it (`Error [ERR_MODULE_NOT_FOUND]:
 * …`) as its message in place of node's `test failed`. A suite that fails by itself (a failing
 * `before` hook: TAP `failureType` other than `subtestsFailed`, a spec `✖ suite` line not followed
 * by an error of its own) is a failure named by the suite. A test cancelled when its suite failed
 * (`✖ name` with no duration) is failed. A file given that does not exist (`Could not find
 * '/path'`, node runs nothing) is an `error` named by its path.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput, TestCounts } from './test-output-types.js';

const tapResult = /^(\s*)(not ok|ok) \d+ - (.*?)(?: # (SKIP|TODO)\b.*)?$/;
const specResult = /^(\s*)([✔✖﹣]) (.+?)(?: \([\d.]+m?s\))?(?: # (.*))?$/;
/** An uncaught error printed before node names the file that failed to load. */
const loadError = /^(?:# )?(\w*Error(?: \[\w+\])?: .+)$/;
const countLine = /^(?:#|ℹ) (tests|pass|fail|skipped|todo|cancelled) (\d+)$/;

/** `node --test` given a file that does not exist (lib/internal/test_runner/runner.js). */
const notFound = /^Could not find '(.+)'$/;

/** Parses node --test output (spec or TAP). Pure; never throws. */
export function parseNodeTest(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const counts = new Map<string, number>();
  const tapNames: Array<{ indent: number; name: string }> = [];
  let specGroups: Array<{ indent: number; name: string }> = [];
  let lastError: string | undefined;
  let repeated = false;
  const fail = (name: string, message: string): void => {
    collector.add(name, 'failed');
    const fileFailed = /^'?test failed'?$/.test(message) && /\.[cm]?[jt]sx?$/.test(name);
    collector.fail(name, fileFailed && lastError !== undefined ? lastError : message);
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    const missing = notFound.exec(line);
    if (missing) {
      // node --test of a file that is not there: it runs nothing and exits 1.
      collector.add(missing[1] as string, 'error');
      collector.fail(missing[1] as string, line);
      continue;
    }
    const error = loadError.exec(line);
    if (error) lastError = error[1] as string;
    const count = countLine.exec(line);
    if (count) {
      counts.set(count[1] as string, Number(count[2]));
      continue;
    }
    if (line.startsWith('✖ failing tests:')) repeated = true;
    if (repeated) continue; // the list repeats the failures already read; only count lines follow
    const subtest = /^(\s*)# Subtest: (.*)$/.exec(line);
    if (subtest) {
      const indent = (subtest[1] as string).length;
      while (tapNames.length > 0 && (tapNames.at(-1)?.indent ?? 0) >= indent) tapNames.pop();
      tapNames.push({ indent, name: subtest[2] as string });
      continue;
    }
    const tap = tapResult.exec(line);
    if (tap) {
      const indent = (tap[1] as string).length;
      while (tapNames.length > 0 && (tapNames.at(-1)?.indent ?? 0) > indent) tapNames.pop();
      const path = tapNames.filter((entry) => entry.indent < indent).map((entry) => entry.name);
      const name = [...path, tap[3] as string].join(' > ');
      if (isSuite(lines, index)) {
        // A suite fails by itself only when its hook failed, not because a test in it did.
        if (tap[2] === 'not ok' && !/failureType: '?subtestsFailed/.test(yamlBlock(lines, index)))
          fail(name, yamlError(lines, index));
        continue;
      }
      const directive = tap[4];
      if (directive) collector.add(name, 'skipped', directive === 'TODO' ? { outcome: 'todo' } : {});
      else if (tap[2] === 'ok') collector.add(name, 'passed');
      else fail(name, yamlError(lines, index));
      continue;
    }
    const suite = /^(\s*)▶ (.*)$/.exec(line);
    const spec = specResult.exec(line);
    const indent = /^\s*/.exec(line)?.[0].length ?? 0;
    if (suite) {
      specGroups = specGroups.filter((group) => group.indent < indent);
      specGroups.push({ indent, name: suite[2] as string });
    } else if (spec) {
      const own = specGroups.find((group) => group.indent === indent && group.name === spec[3]);
      if (own) {
        specGroups = specGroups.filter((group) => group.indent < indent);
        const next = nextText(lines, index + 1);
        if (spec[2] === '✖' && next !== '' && !/^[✔✖﹣▶ℹ] |^'\d+ subtests? failed'$/.test(next)) {
          fail([...specGroups.map((group) => group.name), own.name].join(' > '), next);
        }
        continue;
      }
      const path = specGroups.filter((group) => group.indent < indent).map((group) => group.name);
      const name = [...path, spec[3] as string].join(' > ');
      const mark = spec[2] as string;
      const directive = spec[4] ?? '';
      if (mark === '﹣' || directive.startsWith('SKIP')) collector.add(name, 'skipped');
      else if (directive.startsWith('TODO')) collector.add(name, 'skipped', { outcome: 'todo' });
      else if (mark === '✔') collector.add(name, 'passed');
      else fail(name, (lines[index + 1] ?? '').trim());
    }
  }
  if (counts.has('tests')) {
    const summary: TestCounts = {
      passed: counts.get('pass') ?? 0,
      failed: (counts.get('fail') ?? 0) + (counts.get('cancelled') ?? 0),
      skipped: (counts.get('skipped') ?? 0) + (counts.get('todo') ?? 0),
      total: counts.get('tests') ?? 0,
    };
    collector.counts = summary;
  }
  return collector.finish('node');
}

/** The first non-empty line from `start`, trimmed ('' when none within a few lines). */
function nextText(lines: readonly string[], start: number): string {
  for (let index = start; index < Math.min(lines.length, start + 4); index++) {
    const text = (lines[index] as string).trim();
    if (text !== '') return text;
  }
  return '';
}

/** The YAML block after a TAP result line, as one string ('' when there is none). */
function yamlBlock(lines: readonly string[], index: number): string {
  if ((lines[index + 1] ?? '').trim() !== '---') return '';
  const block: string[] = [];
  for (let cursor = index + 2; cursor < Math.min(lines.length, index + 40); cursor++) {
    const text = (lines[cursor] as string).trim();
    if (text === '...') break;
    block.push(text);
  }
  return block.join('\n');
}

/** `true` when the YAML block after a TAP result line says `type: 'suite'`. */
function isSuite(lines: readonly string[], index: number): boolean {
  if ((lines[index + 1] ?? '').trim() !== '---') return false;
  for (let cursor = index + 2; cursor < Math.min(lines.length, index + 8); cursor++) {
    const text = (lines[cursor] as string).trim();
    if (text === '...') return false;
    if (text === "type: 'suite'") return true;
  }
  return false;
}

/** The first line of the `error:` field of a failed TAP result's YAML block. */
function yamlError(lines: readonly string[], index: number): string {
  for (let cursor = index + 1; cursor < Math.min(lines.length, index + 40); cursor++) {
    const text = (lines[cursor] as string).trim();
    if (text === '...') break;
    if (text.startsWith('error:')) {
      const value = text.slice(6).trim();
      return value === '|-' || value === '|' ? (lines[cursor + 1] ?? '').trim() : value.replace(/^'|'$/g, '');
    }
  }
  return '';
}
