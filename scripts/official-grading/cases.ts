/**
 * Prints the (log, repository) cases of `parser-parity-cases.ts` as JSON for
 * official-statuses.py. Run through run.sh.
 */
import { parserParityCases } from '../../packages/runtime/test/eval/grade/parser-parity-cases.js';

process.stdout.write(JSON.stringify(parserParityCases()));
