/**
 * envd's file endpoints, as the stand-in serves them. Behaviour read from e2b-dev/infra at commit
 * 54693ff353d26c5fe1951db5467e751f3e2f984e (envd 0.6.13):
 *
 * - `packages/envd/internal/api/upload.go` (`POST /files`, multipart or, from envd 0.5.7, an
 *   octet-stream body): envd runs as root, so the upload itself never meets a permission check. Missing
 *   parent directories are made 0755 and chowned to the user (`permissions/path.go` `EnsureDirs`);
 *   an existing file is chowned first, then opened `O_WRONLY|O_CREAT|O_TRUNC` 0666 and chowned to the
 *   user; a directory at the path is HTTP 400. The answer is `[{name, type, path}]`.
 * - `packages/envd/internal/api/download.go` (`GET /files`): read as root; a missing path is 404, a
 *   directory 400; otherwise the file is opened first and then served (`http.ServeContent`) with its
 *   length, so a file removed once the response has begun is still sent whole.
 * - `packages/envd/internal/services/filesystem/remove.go` (`filesystem.Filesystem/Remove`, Connect
 *   unary): `os.RemoveAll` as root, so a missing path is no error and a directory goes with its
 *   contents; the answer is `{}`.
 * - Paths resolve like commands' cwd (`permissions.ExpandAndResolve`): relative ones under the
 *   user's home.
 * - `filesystem.Filesystem/Stat` and `ListDir` (Connect unary, JSON), `not_found` for a missing path.
 * @module
 */
import type { Stats } from 'node:fs';
import { chown, mkdir, open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { resolveUserPath, sendConnectError } from './envd-process.js';
import type { SandboxFileSystem } from './sandbox-file-system.js';
import type { SandboxUser } from './sandbox-user.js';

/** `GET /files?path=…`: the raw bytes, streamed from the file opened before the headers go out. */
export async function downloadFile(
  response: ServerResponse,
  path: string,
  fs: SandboxFileSystem,
): Promise<void> {
  const info = await stat(fs.hostPath(path)).catch(() => undefined);
  if (!info) return sendJson(response, 404, { code: 404, message: `path '${path}' does not exist` });
  if (info.isDirectory())
    return sendJson(response, 400, { code: 400, message: `path '${path}' is a directory` });
  const file = await open(fs.hostPath(path));
  try {
    const { size } = await file.stat();
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
    if (size === 0) response.end();
    else await pipeline(file.createReadStream({ start: 0, end: size - 1, autoClose: false }), response);
  } finally {
    await file.close();
  }
}

/** `filesystem.Filesystem/Remove`: the path and everything under it, as root; missing is fine. */
export async function removeEntry(
  response: ServerResponse,
  path: string,
  fs: SandboxFileSystem,
): Promise<void> {
  try {
    await rm(fs.hostPath(path), { recursive: true, force: true });
  } catch (error) {
    return sendConnectError(
      response,
      500,
      'internal',
      `error removing file or directory: ${(error as Error).message}`,
    );
  }
  sendJson(response, 200, {});
}

/** `POST /files?path=…`: written as root, then owned by the user. */
export async function uploadFiles(
  request: IncomingMessage,
  response: ServerResponse,
  body: Buffer,
  pathParam: string | null,
  user: SandboxUser,
  workdir: string,
  fs: SandboxFileSystem,
): Promise<void> {
  const type = request.headers['content-type'] ?? '';
  const files: { path: string; data: Buffer }[] = [];
  if (type.startsWith('multipart/form-data')) {
    const form = await new Response(body, { headers: { 'content-type': type } }).formData();
    for (const entry of form.getAll('file')) {
      if (typeof entry === 'string') continue;
      files.push({ path: pathParam ?? entry.name, data: Buffer.from(await entry.arrayBuffer()) });
    }
  } else {
    files.push({ path: pathParam ?? '', data: body });
  }
  const written = [];
  for (const file of files) {
    const full = resolveUserPath(file.path, user.home, workdir);
    const host = fs.hostPath(full);
    const info = await stat(host).catch(() => undefined);
    if (info?.isDirectory())
      return sendJson(response, 400, { code: 400, message: `path is a directory: ${full}` });
    try {
      await ensureDirs(dirname(host), user);
      await writeFile(host, file.data, { mode: 0o666 });
      if (user.switched) await chown(host, user.uid, user.gid);
    } catch (error) {
      return sendJson(response, 500, {
        code: 500,
        message: `error writing file: ${(error as Error).message}`,
      });
    }
    written.push({ name: full.split('/').pop(), type: 'file', path: full });
  }
  sendJson(response, 200, written);
}

/** `filesystem.Filesystem/Stat`. */
export async function statEntry(
  response: ServerResponse,
  path: string,
  fs: SandboxFileSystem,
): Promise<void> {
  const info = await stat(fs.hostPath(path)).catch(() => undefined);
  if (!info) return sendConnectError(response, 404, 'not_found', `path '${path}' does not exist`);
  sendJson(response, 200, { entry: entryOf(path, info) });
}

/** `filesystem.Filesystem/ListDir` (depth 1). */
export async function listDirectory(
  response: ServerResponse,
  path: string,
  fs: SandboxFileSystem,
): Promise<void> {
  const names = await readdir(fs.hostPath(path)).catch(() => undefined);
  if (!names) return sendConnectError(response, 404, 'not_found', `directory '${path}' does not exist`);
  const entries = [];
  for (const name of names.sort()) {
    const info = await stat(fs.hostPath(join(path, name))).catch(() => undefined);
    if (info) entries.push(entryOf(join(path, name), info));
  }
  sendJson(response, 200, { entries });
}

/** envd `permissions.EnsureDirs`: each missing directory made 0755 and chowned to the user. */
async function ensureDirs(path: string, user: SandboxUser): Promise<void> {
  const missing: string[] = [];
  for (let current = path; !(await stat(current).catch(() => undefined)); current = dirname(current)) {
    missing.unshift(current);
    if (current === '/') break;
  }
  for (const directory of missing) {
    await mkdir(directory, { mode: 0o755 }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
    if (user.switched) await chown(directory, user.uid, user.gid);
  }
}

function entryOf(path: string, info: Stats) {
  return {
    name: path.split('/').pop(),
    type: info.isDirectory() ? 'FILE_TYPE_DIRECTORY' : 'FILE_TYPE_FILE',
    path,
    size: String(info.size),
    mode: info.mode & 0o7777,
    modifiedTime: info.mtime.toISOString(),
  };
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
