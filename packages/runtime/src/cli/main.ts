#!/usr/bin/env node
// The stdout guard MUST stay the first import (case C01): see stdout-guard.ts.
import './stdout-guard.js';
import { Command } from 'commander';
import { registerCallCommand } from './call-command.js';
import { registerCleanCommand } from './clean-command.js';
import { registerConformanceCommand } from './conformance-command.js';
import { registerEvalCommand } from './eval-command.js';
import { registerGradeCommand } from './grade-command.js';
import { registerMcpCommand } from './mcp-command.js';
import { registerReplayCommand } from './replay-command.js';
import { registerRunCommand } from './run-command.js';
import { registerViewCommand } from './view-command.js';

/**
 * The `sandkit` CLI: `mcp`, `call`, `conformance`, `eval`, `grade`, `clean`, `replay`, `run`, `view`.
 * Results go to stdout; diagnostics to stderr. Exit 1 on an error.
 */
const program = new Command('sandkit')
  .description('Coding-agent tools over any sandbox: MCP server, one-off tool calls, evaluation')
  .version('0.1.0');
registerMcpCommand(program);
registerCallCommand(program);
registerConformanceCommand(program);
registerEvalCommand(program);
registerGradeCommand(program);
registerCleanCommand(program);
registerReplayCommand(program);
registerRunCommand(program);
registerViewCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  console.error(`sandkit: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
