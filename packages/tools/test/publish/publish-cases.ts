/**
 * The publish tool's cases, run on every adapter that gets them (local, Docker): files are made
 * through the sandbox client, published to a real local directory publisher on the host, and the
 * host copy is compared byte for byte.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { executeToolCall, formatCommand, type SandboxHandle, SandkitErrorCode } from '@sandkit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodingTools } from '../../src/create-coding-tools.js';
import type { AssetPublisher } from '../../src/publish/asset-publisher.js';
import { createLocalDirectoryPublisher } from '../../src/publish/local-directory-publisher.js';
import { createPublishTool } from '../../src/publish/publish.js';
import { toolError } from '../tool-error.js';

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Registers the publish cases over the sandbox `open` makes (destroyed after the cases). */
export function describePublishCases(adapter: string, open: () => Promise<SandboxHandle>): void {
  describe(`createPublishTool on the ${adapter} adapter`, () => {
    let sandbox: SandboxHandle;
    let directory: string;
    let publisher: AssetPublisher;
    const root = () => sandbox.workdir;
    // 64 KiB ranges: a file of a few hundred KiB crosses in several execs
    const publish = (input: Record<string, unknown>, extra: { maxBytes?: number } = {}) =>
      createPublishTool(sandbox.client, { root: root(), publisher, rangeBytes: 65_536, ...extra }).call(
        input,
      );
    const put = (path: string, data: string | Uint8Array) =>
      sandbox.client.writeFile(`${root()}/${path}`, data);
    const copyOf = (url: string) => readFile(fileURLToPath(url));

    beforeAll(async () => {
      sandbox = await open();
      directory = await mkdtemp(join(tmpdir(), 'sandkit-publish-'));
      publisher = createLocalDirectoryPublisher({ directory });
    }, 120_000);
    afterAll(async () => {
      await sandbox?.destroy();
      if (directory) await rm(directory, { recursive: true, force: true });
    });

    it('publishes a binary file of several ranges byte for byte, with its sha256 and octet-stream type', async () => {
      const bytes = Buffer.concat([
        Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
        randomBytes(300_000),
      ]);
      await put('out/data.bin', bytes);
      const result = await publish({ path: 'out/data.bin' });
      expect(result).toMatchObject({
        path: 'out/data.bin',
        filename: 'data.bin',
        bytes: bytes.length,
        sha256: sha256(bytes),
        contentType: 'application/octet-stream',
      });
      expect(result.url.startsWith('file://')).toBe(true);
      expect(sha256(await copyOf(result.url))).toBe(sha256(bytes));
      const lifetime = Date.parse(result.expiresAt) - Date.now();
      expect(lifetime).toBeGreaterThan(3590_000);
      expect(lifetime).toBeLessThanOrEqual(3600_000);
    });

    it('keeps a name with spaces and non-ASCII characters, and types a PDF by its bytes', async () => {
      const name = 'Résumé final ü 報告.pdf';
      const pdf = Buffer.from('%PDF-1.4\n% fake but signed\n');
      await put(`docs/${name}`, pdf);
      const result = await publish({ path: `docs/${name}`, expiresInSeconds: 120 });
      expect(result).toMatchObject({ filename: name, contentType: 'application/pdf', bytes: pdf.length });
      expect(decodeURIComponent(result.url).endsWith(`/${name}`)).toBe(true);
      expect(await copyOf(result.url)).toEqual(pdf);
    });

    it('types UTF-8 text by its extension, and honours filename and contentType', async () => {
      await put('report.html', '<h1>héllo</h1>\n');
      expect((await publish({ path: 'report.html' })).contentType).toBe('text/html; charset=utf-8');
      const renamed = await publish({
        path: 'report.html',
        filename: 'index.htm',
        contentType: 'text/plain',
      });
      expect(renamed).toMatchObject({ filename: 'index.htm', contentType: 'text/plain' });
    });

    it('publishes an empty file', async () => {
      await put('empty.txt', '');
      const result = await publish({ path: 'empty.txt' });
      expect(result).toMatchObject({ bytes: 0, sha256: sha256(new Uint8Array()) });
      expect((await copyOf(result.url)).length).toBe(0);
    });

    it('refuses a symlink that leads outside the root with outside_root', async () => {
      const link = `${root()}/escape.txt`;
      const made = await sandbox.client.exec(formatCommand(['ln', '-sf', '/etc/passwd', link]));
      expect(made.exitCode).toBe(0);
      const error = await toolError(publish({ path: 'escape.txt' }));
      expect(error.code).toBe(SandkitErrorCode.outsideRoot);
      expect(error.message).toContain('a symlink leads to /etc/passwd');
    });

    it('says not_found for a missing file and is_directory for a directory', async () => {
      expect((await toolError(publish({ path: 'no/such.txt' }))).code).toBe(SandkitErrorCode.notFound);
      await put('dir/inside.txt', 'x');
      const error = await toolError(publish({ path: 'dir' }));
      expect(error.code).toBe(SandkitErrorCode.isDirectory);
      expect(error.message).toContain('tar czf');
    });

    it('refuses a file over maxBytes with too_large, before reading it', async () => {
      await put('big.bin', randomBytes(2048));
      const error = await toolError(publish({ path: 'big.bin' }, { maxBytes: 1024 }));
      expect(error.code).toBe(SandkitErrorCode.tooLarge);
      expect(error.details).toMatchObject({ bytes: 2048, maxBytes: 1024 });
    });

    it('returns a publisher that throws as a publish_failed tool error with its reason, not a crash', async () => {
      await put('note.txt', 'hello');
      const failing: AssetPublisher = {
        name: 'broken-store',
        share: async (request) => {
          if ('stream' in request) request.stream.resume();
          throw new Error('AccessDenied: the bucket policy refuses PutObject');
        },
      };
      const tools = createCodingTools(sandbox.client, { root: root(), publisher: failing });
      const result = await executeToolCall(tools, {
        type: 'function_call',
        call_id: 'c1',
        name: 'publish',
        arguments: JSON.stringify({ path: 'note.txt' }),
      });
      expect(result.isError).toBe(true);
      expect(result.error?.code).toBe(SandkitErrorCode.publishFailed);
      expect(result.content).toEqual([
        {
          type: 'text',
          text: 'publishing note.txt to broken-store failed: AccessDenied: the bucket policy refuses PutObject',
        },
      ]);
    });
  });
}
