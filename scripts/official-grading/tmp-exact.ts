import { readFileSync } from 'node:fs';
import { parserParityCases, sandkitStatuses } from '../../packages/runtime/test/eval/grade/parser-parity-cases.js';
import { diffStatusMaps } from '../../packages/runtime/test/eval/grade/status-map-diff.js';
const file = JSON.parse(readFileSync('packages/runtime/test/eval/fixtures/official-parsers/statuses.json','utf8'));
const cases = new Map(parserParityCases().map((e) => [`${e.log}\t${e.repo}`, e]));
const exact = new Map<string, string[]>(); const empty = new Map<string, Set<string>>();
for (const row of file.cases) { const o = file.maps[row.statuses]; const e = cases.get(`${row.log}\t${row.repo}`)!;
  const k = row.log.split('/').slice(-2).join('/');
  if (Object.keys(o).length === 0) { if (!empty.has(e.officialParser)) empty.set(e.officialParser, new Set()); empty.get(e.officialParser)!.add(k); continue; }
  if (diffStatusMaps(o, sandkitStatuses(e)) === null) { exact.set(k, [...(exact.get(k) ?? []), row.repo]); } }
for (const [k, v] of exact) console.log('EXACT', k, v.length, v.slice(0,3).join(' '));
for (const [k, v] of empty) console.log('EMPTY', k, [...v].join(' '));
