/**
 * read_file results as model content: the text plus one status line (range, line endings,
 * notices, how to continue, revision), or image / document parts for media.
 * @module
 */
import type { ToolContent } from '@sandkit/core';
import type { z } from 'zod';
import type { readFileOutputSchema } from './read-file-schema.js';

/** What the model sees for a read_file result: text with a status line, or image / document content. */
export function readFileContent(output: z.output<typeof readFileOutputSchema>): ToolContent[] {
  switch (output.kind) {
    case 'media':
      return output.mediaType === 'application/pdf'
        ? [{ type: 'document', mediaType: 'application/pdf', data: output.data, title: output.path }]
        : [
            { type: 'image', mediaType: output.mediaType, data: output.data },
            { type: 'text', text: `${output.path}: ${output.mediaType}, ${output.size} bytes` },
          ];
    case 'binary':
      return [{ type: 'text', text: output.message }];
    case 'bytes':
      return [{ type: 'text', text: `${output.content}\n${statusLine(output)}` }];
    case 'text':
      return [
        {
          type: 'text',
          text: output.content === '' ? statusLine(output) : `${output.content}\n${statusLine(output)}`,
        },
      ];
  }
}

function statusLine(output: z.output<typeof readFileOutputSchema>): string {
  const facts: string[] = [];
  if (output.kind === 'bytes') {
    facts.push(
      `base64 of bytes ${output.byteOffset}-${output.byteOffset + output.byteLength} of ${output.size}`,
    );
    if (output.nextByteOffset !== undefined)
      facts.push(`more: call read_file with encoding="base64" byteOffset=${output.nextByteOffset}`);
  } else if (output.kind === 'text') {
    const total = output.totalLines === null ? `${output.size} bytes` : `${output.totalLines} lines`;
    facts.push(
      output.endLine < output.startLine
        ? `no lines shown (of ${total})`
        : `lines ${output.startLine}-${output.endLine} of ${total}`,
    );
    if (output.lineEnding && output.lineEnding !== 'lf') facts.push(`line endings ${output.lineEnding}`);
    if (output.bom) facts.push('UTF-8 BOM');
    if (output.notice) facts.push(output.notice);
    if (output.nextOffset !== undefined)
      facts.push(`more: call read_file with offset=${output.nextOffset} byteOffset=${output.nextByteOffset}`);
  }
  if (output.revision) facts.push(`revision ${output.revision}`);
  return `[${facts.join('; ')}]`;
}
