/** A `sandkit` entry with only the eval command, used by the tests until `src/cli/main.ts` exists. */
import { createEvalProgram } from '../../src/cli/eval-command.js';

await createEvalProgram().parseAsync(process.argv);
