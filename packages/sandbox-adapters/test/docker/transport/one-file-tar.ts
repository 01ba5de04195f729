/** A tar archive holding one regular file, made with tar-stream (a writer the reader does not share). */
import tar from 'tar-stream';

/**
 * The archive of one file `name` holding `data` (mode 644, owner 0:0) as the pieces tar-stream
 * emits: the header, `data` itself (not a copy), the padding and end blocks.
 */
export async function oneFileTarParts(name: string, data: Uint8Array): Promise<Buffer[]> {
  const pack = tar.pack();
  pack.entry(
    { name, size: data.length, mode: 0o644, uid: 0, gid: 0 },
    Buffer.from(data.buffer, data.byteOffset, data.length),
  );
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const part of pack as AsyncIterable<Buffer>) parts.push(part);
  return parts;
}

/** {@link oneFileTarParts} as one buffer. */
export async function oneFileTar(name: string, data: Uint8Array): Promise<Buffer> {
  return Buffer.concat(await oneFileTarParts(name, data));
}
