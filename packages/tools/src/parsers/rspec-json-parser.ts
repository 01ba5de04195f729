/**
 * RSpec's `--format json` document (framework `rspec-json`; rspec-core's JsonFormatter): one line
 * `{"version":…,"examples":[…],"summary":{…},"summary_line":…}`, after whatever the specs print.
 * Each example is named by its `full_description` (the id of sandkit's rspec console parser),
 * `status` `passed`/`failed`/`pending` (pending is `skipped`), its message the `exception`'s
 * `message`. Counts from `summary`: `example_count`, `failure_count` + `errors_outside_of_examples_count`
 * (as the rspec console parser counts them), `pending_count`. An error outside examples (a spec
 * file that fails to load) is an `error` named by the file of its `messages` entry (`An error
 * occurred while loading ./spec/x_spec.rb.`), else `errors outside of examples`. A document that
 * does not parse (cut) is an `error` named `rspec-json`, with no counts and no passes.
 * @module
 */
import { TestCollector } from './test-collector.js';
import type { ParsedTestOutput } from './test-output-types.js';

/** RSpec's JSON document's first characters, for detection. */
export const rspecJsonSignature = /^\{"version":"\d[^"]*","(?:messages|seed|examples)":/m;

interface Example {
  full_description?: unknown;
  status?: unknown;
  exception?: { message?: unknown };
}

/** Parses `rspec --format json` output. Pure; never throws. */
export function parseRspecJson(lines: readonly string[]): ParsedTestOutput {
  const collector = new TestCollector();
  const line = lines.find((text) => rspecJsonSignature.test(text));
  let document: { examples?: unknown; summary?: Record<string, unknown>; messages?: unknown } | undefined;
  try {
    document = line === undefined ? undefined : JSON.parse(line);
  } catch {
    collector.add('rspec-json', 'error');
    collector.fail('rspec-json', 'the RSpec JSON document does not parse: the output was cut or damaged');
    return collector.finish('rspec-json');
  }
  if (document === undefined) return collector.finish('rspec-json');
  for (const example of Array.isArray(document.examples) ? (document.examples as Example[]) : []) {
    if (typeof example.full_description !== 'string') continue;
    const name = example.full_description;
    if (example.status === 'passed') collector.add(name, 'passed');
    else if (example.status === 'pending') collector.add(name, 'skipped');
    else if (example.status === 'failed') {
      collector.add(name, 'failed');
      const message = example.exception?.message;
      collector.fail(name, typeof message === 'string' ? message : '');
    }
  }
  const summary = document.summary ?? {};
  const count = (key: string): number | undefined =>
    typeof summary[key] === 'number' ? (summary[key] as number) : undefined;
  const outside = count('errors_outside_of_examples_count') ?? 0;
  const messages = Array.isArray(document.messages)
    ? document.messages.filter((m) => typeof m === 'string')
    : [];
  for (let index = 0; index < outside; index++) {
    const text = (messages as string[]).find(
      (m) => /An error occurred/.test(m) && !collector.statusOf(loadName(m)),
    );
    const name = text === undefined ? 'errors outside of examples' : loadName(text);
    collector.add(name, 'error');
    collector.fail(name, text?.trim().split('\n').slice(0, 6).join('\n') ?? '');
  }
  const total = count('example_count');
  const failures = count('failure_count');
  const pending = count('pending_count');
  if (total !== undefined && failures !== undefined && pending !== undefined)
    collector.counts = {
      total,
      failed: failures + outside,
      skipped: pending,
      passed: total - failures - pending,
    };
  return collector.finish('rspec-json');
}

function loadName(message: string): string {
  return /An error occurred while loading (\S+?)\.?$/m.exec(message)?.[1] ?? 'errors outside of examples';
}
