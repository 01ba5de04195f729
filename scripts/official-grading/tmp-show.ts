import { parserParityCases, sandkitStatuses } from '../../packages/runtime/test/eval/grade/parser-parity-cases.js';
const want = process.argv.slice(2);
for (const e of parserParityCases()) if (want.some((w) => `${e.log} ${e.repo}`.includes(w.split('@')[0]) && `${e.log} ${e.repo}`.includes(w.split('@')[1])))
  console.log(e.log.split('/').at(-1), e.repo, Object.fromEntries(sandkitStatuses(e)));
