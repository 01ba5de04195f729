/** A tar archive holding one regular file, made with tar-stream (a writer the reader does not share). */
import tar from 'tar-stream';

/** The whole archive of one file `name` holding `data` (mode 644, owner 0:0), as one buffer. */
export async function oneFileTar(name: string, data: Uint8Array): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name, size: data.length, mode: 0o644, uid: 0, gid: 0 }, Buffer.from(data));
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
