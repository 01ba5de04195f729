// The S3 stand-in's process: s3rver (the npm "fake S3 server") on 127.0.0.1, an ephemeral port, one
// bucket, objects in the directory given as argv[2]. Prints {"port":N} once it listens. Its own
// process, so its memory (it holds parts while it assembles an object) is never the host's.
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => server.close().then(() => process.exit(0)));
