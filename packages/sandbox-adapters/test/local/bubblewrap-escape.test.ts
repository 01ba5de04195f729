import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalSandboxAdapter } from '@sandkit/sandbox-adapters/local';
import { afterAll, beforeAll } from 'vitest';
import { describeEscapeSuite } from '../escape/describe-escape-suite.js';

let template = '';
beforeAll(async () => {
  template = await mkdtemp(join(tmpdir(), 'sandkit-escape-template-'));
  execFileSync('git', ['init', '-q', template]);
  await writeFile(join(template, '.git/hooks/pre-commit'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
});
afterAll(() => rm(template, { recursive: true, force: true }));

describeEscapeSuite('local (bubblewrap)', {
  create: (internet) =>
    createLocalSandboxAdapter({
      isolation: 'bubblewrap',
      template,
      network: { allow: [internet.allowed.host] },
      bubblewrap: { hiddenPaths: [join(homedir(), '.ssh'), internet.secretDir] },
    }).create(),
});
