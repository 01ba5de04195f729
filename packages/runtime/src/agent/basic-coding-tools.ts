/**
 * A small stand-in for `createCodingTools` from `@sandkit/tools`, used as the runtime's default tool
 * set until that factory is exported: read_file, write_file, edit_file, search_files (ripgrep; exit
 * 1 = no match, 2 = error) and exec. Paths resolve against `root` and may not leave it lexically
 * (symlinks are NOT checked here; the @sandkit/tools versions do).
 * @module
 */
import { posix } from 'node:path';
import {
  defineTool,
  formatCommand,
  type SandboxClient,
  SandboxError,
  SandkitErrorCode,
  type Tool,
  ToolError,
} from '@sandkit/core';
import { z } from 'zod';

const imageTypes: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Options of {@link createBasicCodingTools}. */
export interface BasicCodingToolsOptions {
  /** Absolute sandbox path every tool path resolves against. */
  root: string;
  /** Only the tools with permission `'read'`. @default false */
  readonly?: boolean;
}

/** The stand-in tool set; see the module doc. */
export function createBasicCodingTools(client: SandboxClient, options: BasicCodingToolsOptions): Tool[] {
  const { root } = options;
  const resolve = (path: string): string => {
    const absolute = posix.resolve(root, path);
    if (absolute !== root && !absolute.startsWith(`${root}/`)) {
      throw new ToolError({
        code: SandkitErrorCode.outsideRoot,
        message: `path "${path}" is outside the workspace ${root}; use a path inside it`,
      });
    }
    return absolute;
  };
  const readBytes = async (path: string): Promise<Uint8Array> => {
    try {
      return await client.readFile(resolve(path));
    } catch (error) {
      if (
        SandboxError.isInstance(error) &&
        (error.code === 'file_not_found' || error.code === 'is_directory')
      ) {
        throw new ToolError({
          code: SandkitErrorCode.notFound,
          message: `cannot read ${path}: ${error.message}; list the directory to find the right path`,
          cause: error,
        });
      }
      throw error;
    }
  };
  const readText = async (path: string): Promise<string> => new TextDecoder().decode(await readBytes(path));
  const tools: Tool[] = [
    defineTool({
      name: 'read_file',
      description:
        'Read a file of the workspace. Text comes back whole; images (png, jpeg, gif, webp) as images.',
      permission: 'read',
      inputSchema: z.object({ path: z.string().min(1).describe('Path relative to the workspace root') }),
      outputSchema: z.object({
        path: z.string(),
        text: z.string().optional(),
        image: z.object({ mediaType: z.string(), data: z.string() }).optional(),
      }),
      async execute({ path }) {
        const mediaType = imageTypes[posix.extname(path).slice(1).toLowerCase()];
        if (mediaType)
          return {
            path,
            image: { mediaType, data: Buffer.from(await readBytes(path)).toString('base64') },
          };
        return { path, text: await readText(path) };
      },
      toContent: (out) =>
        out.image
          ? [
              { type: 'text', text: `${out.path} (${out.image.mediaType})` },
              { type: 'image', ...out.image },
            ]
          : [{ type: 'text', text: out.text ?? '' }],
    }),
    defineTool({
      name: 'search_files',
      description: 'Search the workspace with ripgrep. Returns matching lines as path:line:text.',
      permission: 'read',
      inputSchema: z.object({
        pattern: z.string().min(1).describe('Regular expression'),
        path: z.string().default('.').describe('Directory or file to search'),
      }),
      outputSchema: z.object({ matches: z.string() }),
      async execute({ pattern, path }, { signal }) {
        const result = await client.exec(
          formatCommand(['rg', '-n', '--no-heading', '--color=never', '-e', pattern, '--', resolve(path)]),
          { cwd: root, signal },
        );
        if (result.exitCode === 1) return { matches: '' };
        if (result.exitCode !== 0)
          throw new ToolError({
            code: SandkitErrorCode.invalidPattern,
            message: `rg failed: ${result.stderr.trim()}`,
          });
        return { matches: result.stdout.split(`${root}/`).join('') };
      },
    }),
    defineTool({
      name: 'write_file',
      description: 'Write a whole file (created with its directories when missing).',
      permission: 'write',
      inputSchema: z.object({ path: z.string().min(1), content: z.string() }),
      outputSchema: z.object({ path: z.string(), bytes: z.number() }),
      async execute({ path, content }) {
        await client.writeFile(resolve(path), content);
        return { path, bytes: Buffer.byteLength(content) };
      },
    }),
    defineTool({
      name: 'edit_file',
      description: 'Replace oldText with newText in a file. oldText must occur exactly once.',
      permission: 'write',
      inputSchema: z.object({ path: z.string().min(1), oldText: z.string().min(1), newText: z.string() }),
      outputSchema: z.object({ path: z.string(), replaced: z.literal(1) }),
      async execute({ path, oldText, newText }) {
        const text = await readText(path);
        const count = text.split(oldText).length - 1;
        if (count !== 1) {
          throw new ToolError({
            code: count === 0 ? SandkitErrorCode.noMatch : SandkitErrorCode.notUnique,
            message:
              count === 0
                ? `oldText was not found in ${path}; read the file and copy the text exactly`
                : `oldText occurs ${count} times in ${path}; add surrounding lines to make it unique`,
          });
        }
        await client.writeFile(
          resolve(path),
          text.replace(oldText, () => newText),
        );
        return { path, replaced: 1 as const };
      },
    }),
    defineTool({
      name: 'exec',
      description:
        'Run a shell command in the workspace root. A non-zero exit code is reported, not an error.',
      permission: 'exec',
      inputSchema: z.object({
        command: z.string().min(1),
        timeoutMs: z.number().int().min(1).max(600_000).default(120_000),
      }),
      outputSchema: z.object({
        exitCode: z.number().nullable(),
        stdout: z.string(),
        stderr: z.string(),
        timedOut: z.boolean(),
      }),
      async execute({ command, timeoutMs }, { signal }) {
        const r = await client.exec(command, { cwd: root, timeoutMs, signal, maxOutputBytes: 64 * 1024 });
        if (r.aborted)
          throw new ToolError({ code: SandkitErrorCode.aborted, message: 'the command was aborted' });
        return { exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut };
      },
    }),
  ];
  return options.readonly ? tools.filter((t) => t.permission === 'read') : tools;
}
