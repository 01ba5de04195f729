import { executeToolCalls, type SandboxClient } from '@sandkit/core';
import { createCodingTools } from '../../src/create-coding-tools.js';

/** What one E03 turn gave: the exec call's result, or why it failed. */
export interface TurnOutcome {
  turn: number;
  ok: boolean;
  detail: string;
}

/**
 * Runs the E03 turn `turns` times through `executeToolCalls`: `write_file g-N.txt` then
 * `exec cat g-N.txt`, both in one call list, a fresh file name per turn so no earlier turn's file
 * can answer for a later one. Returns the turns whose exec did not print the file.
 */
export async function failedWriteThenExecTurns(
  client: SandboxClient,
  root: string,
  turns: number,
): Promise<TurnOutcome[]> {
  const tools = createCodingTools(client, { root });
  const failed: TurnOutcome[] = [];
  for (let turn = 0; turn < turns; turn++) {
    const path = `g-${turn}.txt`;
    const [write, exec] = await executeToolCalls(tools, [
      { id: `w${turn}`, name: 'write_file', input: { path, content: `hi ${turn}` } },
      { id: `x${turn}`, name: 'exec', input: { command: `cat ${path}` } },
    ]);
    const output = exec?.output as { exitCode: number | null; stdout: string; stderr: string } | undefined;
    const ok = write?.error === undefined && output?.exitCode === 0 && output.stdout === `hi ${turn}`;
    if (!ok) {
      failed.push({ turn, ok, detail: JSON.stringify(exec?.error?.message ?? output) });
    }
  }
  return failed;
}
