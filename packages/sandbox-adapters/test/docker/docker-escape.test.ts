import { createDockerSandboxAdapter } from '@sandkit/sandbox-adapters/docker';
import { describeEscapeSuite } from '../escape/describe-escape-suite.js';
import { dockerTestImage } from './docker-test-helpers.js';

describeEscapeSuite('docker', {
  create: async (internet) => {
    const handle = await createDockerSandboxAdapter({
      image: dockerTestImage,
      network: { allow: [internet.allowed.host] },
    }).create();
    await handle.client.exec('git init -q . && echo "#!/bin/sh" > .git/hooks/pre-commit');
    return handle;
  },
  // The Docker adapter does not bind protected paths read-only inside the container: the tools'
  // protectedPaths refuse such writes, a command is not stopped.
  without: ['hooks-exec'],
});
