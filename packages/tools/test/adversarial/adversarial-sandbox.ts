/**
 * Test helper for the adversarial suites: a real local sandbox holding hostile fixtures (symlinks to
 * `/` and outside the root, a symlink loop, a FIFO), a sibling "outside" directory whose contents must
 * never change, and `call()` running a tool call through `executeToolCall` exactly as a model's would.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { executeToolCall, type SandboxHandle, type Tool, type ToolCallResult } from '@sandkit/core';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { createCodingTools } from '../../src/index.js';

/** The sandbox, its tools and the outside directory. */
export interface AdversarialSandbox {
  handle: SandboxHandle;
  root: string;
  /** A directory next to the root that no call may touch. */
  outside: string;
  tools: Tool[];
  /** Runs one call with a 20 s guard: a hang fails the test instead of stalling it. */
  call(name: string, input: unknown): Promise<ToolCallResult>;
  put(path: string, content: string | Uint8Array): Promise<void>;
  text(path: string): Promise<string>;
  /** Every name under the outside directory with its content, to compare before and after. */
  outsideSnapshot(): Promise<string>;
  destroy(): Promise<void>;
}

/** Output cap given to the tools: small, so capping is exercised. */
export const testMaxOutputBytes = 2000;

/** Creates the sandbox with its fixtures. */
export async function createAdversarialSandbox(): Promise<AdversarialSandbox> {
  const handle = await createLocalSandboxAdapter().create();
  const root = handle.workdir;
  const outside = `${root}-outside`;
  await mkdir(outside, { recursive: true });
  await writeFile(join(outside, 'secret.txt'), 'SECRET\n');
  await writeFile(join(root, 'a.txt'), 'hello\nworld\n');
  await symlink('/', join(root, 'slash'));
  await symlink(outside, join(root, 'outlink'));
  await symlink(join(outside, 'secret.txt'), join(root, 'secretlink'));
  await symlink('loop1', join(root, 'loop2'));
  await symlink('loop2', join(root, 'loop1'));
  execFileSync('mkfifo', [join(root, 'fifo')]);
  const tools = createCodingTools(handle.client, { root, maxOutputBytes: testMaxOutputBytes });
  const put = async (path: string, content: string | Uint8Array) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  };
  return {
    handle,
    root,
    outside,
    tools,
    put,
    text: (path) => readFile(join(root, path), 'utf8'),
    call: (name, input) => {
      let timer: NodeJS.Timeout | undefined;
      const guard = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${name} hung for 20 s`)), 20_000);
      });
      return Promise.race([executeToolCall(tools, { name, input } as never), guard]).finally(() =>
        clearTimeout(timer),
      );
    },
    async outsideSnapshot() {
      const names = (await readdir(outside, { recursive: true })).sort();
      const parts = await Promise.all(
        names.map(async (name) => `${name}=${await readFile(join(outside, name), 'utf8').catch(() => '?')}`),
      );
      return parts.join('\n');
    },
    async destroy() {
      await rm(outside, { recursive: true, force: true });
      await handle.destroy();
    },
  };
}

/** The error code of a result, failing loudly when the call succeeded. */
export function errorCode(result: ToolCallResult): string {
  if (!result.isError) throw new Error(`expected an error result, got ${JSON.stringify(result.output)}`);
  return result.error?.code ?? '(none)';
}

/** The text the model sees. */
export function contentText(result: ToolCallResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n');
}
