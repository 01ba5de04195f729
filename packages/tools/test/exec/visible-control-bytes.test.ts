import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SandboxHandle } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExecTool } from '../../src/exec/exec.js';
import { createReadOutputTool } from '../../src/exec/read-output.js';
import { visibleControlBytes } from '../../src/exec/visible-control-bytes.js';
import { createRunTestsTool } from '../../src/run-tests/run-tests.js';

let sandbox: SandboxHandle;
beforeAll(async () => {
  sandbox = await createLocalSandboxAdapter().create();
});
afterAll(() => sandbox.destroy());

// C0 controls other than tab, LF and CR, and DEL
const rawControl = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

const exec = (command: string) =>
  createExecTool(sandbox.client, { root: sandbox.workdir }).call({ command }) as Promise<
    Record<string, unknown> & { stdout: string; stderr: string; notice?: string; outputFile?: string }
  >;

describe('visibleControlBytes', () => {
  it.each([
    ['name\0value\n', 'name\\x00value\\n'.replace('\\n', '\n')],
    ['a\x1b[31mred\x1b[0m\tb\r\n', 'a\\x1b[31mred\\x1b[0m\tb\r\n'],
    ['bell\x07 del\x7f', 'bell\\x07 del\\x7f'],
  ])('F06: shows the control bytes of %j as \\xNN and keeps tab, CR and LF', (text, shown) => {
    const visible = visibleControlBytes(text, 'stdout');
    expect(visible.text).toBe(shown);
    expect(visible.note).toMatch(/^stdout holds \d control bytes?/);
  });

  it('F06: describes text full of control bytes as binary instead of escaping it', () => {
    const visible = visibleControlBytes(`\x7fELF${'\0'.repeat(200)}`, 'stdout', '.sandkit/exec/x.log');
    expect(visible.text).toMatch(/^\[binary output not shown: it has 201 control bytes and looks like ELF/);
    expect(visible.text).toContain('the raw bytes are in .sandkit/exec/x.log');
  });

  it('leaves text without control bytes as it is, with no note', () => {
    expect(visibleControlBytes('plain ✓ text\n', 'stdout')).toEqual({ text: 'plain ✓ text\n' });
  });
});

describe('the command tools on output with control bytes', () => {
  it('F06: exec shows a NUL escaped, says so, and keeps the raw bytes in outputFile', async () => {
    const result = await exec("printf 'name\\0value\\n'");
    expect(result.stdout).toBe('name\\x00value\n');
    expect(result.notice).toContain('stdout holds 1 control byte');
    expect(result.outputFile).toMatch(/^\.sandkit\/exec\//);
    expect(await readFile(join(sandbox.workdir, result.outputFile!))).toEqual(
      Buffer.from('name\0value\n', 'latin1'),
    );
  });

  it('F06: exec describes binary-looking output (an ELF header) instead of showing it', async () => {
    const result = await exec("printf 'name\\0value\\n'; head -c 48 /bin/true");
    expect(result.stdout).not.toMatch(rawControl);
    expect(result.stdout).toMatch(/^\[binary output not shown: it has \d+ control bytes and looks like/);
    expect(result.stdout).toContain(`the raw bytes are in ${result.outputFile}`);
    expect((await readFile(join(sandbox.workdir, result.outputFile!))).length).toBe(59);
  });

  it('F06: exec escapes stderr too, and output without control bytes leaves no file', async () => {
    const result = await exec("printf 'ok\\0\\0\\0done\\n' >&2; exit 3");
    expect(result).toMatchObject({ exitCode: 3, stderr: 'ok\\x00\\x00\\x00done\n', stdout: '' });
    expect(result.stderrFile).toMatch(/\.stderr\.log$/);
    const plain = await exec('echo fine');
    expect(plain.notice).toBeUndefined();
    expect(plain.outputFile).toBeUndefined();
  });

  it('F06: exec describes a megabyte of NULs as binary and stays within its budget', async () => {
    const result = await exec('head -c 1000000 /dev/zero');
    expect(result.stdout).toMatch(/^\[binary output not shown: it has \d+ control bytes/);
    expect(result.stdout.length).toBeLessThan(1000);
  });

  it('F06: read_output escapes the page of a background command, and outputFile keeps it raw', async () => {
    const tool = createExecTool(sandbox.client, { root: sandbox.workdir });
    const started = (await tool.call({ command: "printf 'bg\\0out\\n'", background: true })) as {
      processId: string;
    };
    const read = createReadOutputTool(sandbox.client, { root: sandbox.workdir });
    let page: {
      output: string;
      running: boolean;
      notice?: string;
      outputFile: string;
      nextByteOffset: number;
    };
    do {
      page = (await read.call({ processId: started.processId })) as typeof page;
    } while (page.running);
    expect(page.output).toBe('bg\\x00out\n');
    expect(page.nextByteOffset).toBe(7);
    expect(page.notice).toContain('output holds 1 control byte');
    expect(await readFile(join(sandbox.workdir, page.outputFile))).toEqual(
      Buffer.from('bg\0out\n', 'latin1'),
    );
  });

  it('F06: run_tests shows the output tail escaped and still parses the summary', async () => {
    const result = (await createRunTestsTool(sandbox.client, { root: sandbox.workdir }).call({
      command: "printf 'x\\0y\\n1 passed in 0.01s\\n'",
      framework: 'pytest',
    })) as { output: string; notice?: string; passed?: number };
    expect(result.output).toBe('x\\x00y\n1 passed in 0.01s\n');
    expect(result.notice).toContain('output holds 1 control byte');
    expect(result.passed).toBe(1);
  });
});
