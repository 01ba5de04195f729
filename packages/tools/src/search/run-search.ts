/**
 * Runs rg or grep for search_files, parsing stdout as it streams and stopping the program (abort
 * → process-group kill) once enough units are in.
 * @module
 */
import type { ExecResult, SandboxClient } from '@sandkit/core';
import { parseGrepRecords } from './parse-grep-output.js';
import { parseRgJsonLine } from './parse-rg-json.js';
import { SearchCollector } from './search-collector.js';

/** Options of {@link runSearch}. */
export interface RunSearchOptions {
  engine: 'rg' | 'grep';
  mode: 'content' | 'files_with_matches' | 'count';
  context: number;
  /** Absolute directory to run in (the root). */
  cwd: string;
  /** Stop once this many units have started (the last one may be incomplete). */
  stopAfterUnits: number;
  signal?: AbortSignal | undefined;
}

/** What one run produced. */
export interface SearchRun {
  collector: SearchCollector;
  /** `true` when the run was stopped after {@link RunSearchOptions.stopAfterUnits}. */
  stopped: boolean;
  result: ExecResult;
}

/** Runs `command`, feeding its stdout to the engine's parser. Never throws for a non-zero exit. */
export async function runSearch(
  client: SandboxClient,
  command: string,
  options: RunSearchOptions,
): Promise<SearchRun> {
  const collector = new SearchCollector(options.mode, options.context);
  const stopper = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stopper.signal]) : stopper.signal;
  const decoder = new TextDecoder();
  let buffer = '';
  let stopped = false;
  const feed = (final: boolean): void => {
    if (options.engine === 'rg') {
      const lines = buffer.split('\n');
      buffer = final ? '' : lines.pop()!;
      for (const line of lines) {
        const record = parseRgJsonLine(line);
        if (record) collector.add(record);
        if (collector.units.length >= options.stopAfterUnits) break;
      }
    } else {
      const parsed = parseGrepRecords(buffer, final);
      buffer = parsed.rest;
      for (const record of parsed.records) {
        collector.add(record);
        if (collector.units.length >= options.stopAfterUnits) break;
      }
    }
    if (!stopped && collector.units.length >= options.stopAfterUnits) {
      stopped = true;
      stopper.abort();
    }
  };
  const result = await client.exec(command, {
    cwd: options.cwd,
    maxOutputBytes: 8192,
    signal,
    onStdout(chunk) {
      if (stopped) return;
      buffer += decoder.decode(chunk, { stream: true });
      feed(false);
    },
  });
  if (!stopped) {
    buffer += decoder.decode();
    feed(true);
  }
  return { collector, stopped, result };
}
