import { executeToolCall } from '@sandkit/core';
import type { Command } from 'commander';
import { defaultCodingTools } from '../agent/default-coding-tools.js';
import { openWorkspace } from './open-workspace.js';
import { addPublishFlags, type PublishFlags, publishSetup } from './publish-options.js';

/** Registers `sandkit call <tool> [json]`: runs one tool call and prints its result as JSON. */
export function registerCallCommand(program: Command): void {
  const command = program
    .command('call')
    .description('Run one tool call and print { isError, output, content } as JSON; exit 1 when it failed')
    .argument('<tool>', 'tool name, for example read_file')
    .argument('[input]', 'the arguments as a JSON object', '{}')
    .option('--sandbox <kind>', 'local | docker', 'local')
    .option('--root <dir>', 'workspace: a host directory (local) or the path in the container (docker)')
    .option('--image <image>', 'image for --sandbox docker')
    .option('--readonly', 'only the read-only tools', false);
  addPublishFlags(command).action(
    async (
      name: string,
      input: string,
      options: { sandbox: string; root?: string; image?: string; readonly: boolean } & PublishFlags,
    ) => {
      const publish = await publishSetup(options);
      const workspace = await openWorkspace(options);
      try {
        const tools = defaultCodingTools(workspace.client, workspace.root, {
          readonly: options.readonly,
          ...publish,
        });
        const result = await executeToolCall(tools, {
          type: 'function_call',
          call_id: 'cli',
          name,
          arguments: input,
        });
        const { isError, output, content } = result;
        process.stdout.write(`${JSON.stringify({ isError, output, content }, null, 2)}\n`);
        process.exitCode = isError ? 1 : 0;
      } finally {
        await workspace.close();
      }
    },
  );
}
