/**
 * The `publish` tool's flags of `sandkit mcp` and `sandkit call`: `--publish-s3 bucket/prefix`
 * (S3-compatible; region, endpoint and credentials from the AWS SDK's usual environment),
 * `--publish-dir DIR` with `--publish-base-url URL`, or `--publish-config FILE` (JSON, every
 * option). Without any of them there is no `publish` tool.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import { type AssetPublisher, createLocalDirectoryPublisher, type PublishToolOptions } from '@sandkit/tools';
import type { Command } from 'commander';
import { z } from 'zod';

/** The flags as commander parses them. */
export interface PublishFlags {
  publishS3?: string;
  publishDir?: string;
  publishBaseUrl?: string;
  publishConfig?: string;
}

/** The publisher and the tool's bounds the flags give (`publisher` absent: no publish tool). */
export interface PublishSetup {
  publisher?: AssetPublisher;
  publish?: Omit<PublishToolOptions, 'publisher' | 'root' | 'maxOutputBytes'>;
}

/** Adds the publish flags to `command`. */
export function addPublishFlags(command: Command): Command {
  return command
    .option(
      '--publish-s3 <bucket/prefix>',
      'add the publish tool: upload to this S3-compatible bucket and prefix, return presigned links (region, endpoint, keys: AWS_REGION, AWS_ENDPOINT_URL_S3, AWS_ACCESS_KEY_ID, ...)',
    )
    .option('--publish-dir <dir>', 'add the publish tool: copy files into this host directory (development)')
    .option('--publish-base-url <url>', 'with --publish-dir: the http(s) URL the directory is served at')
    .option(
      '--publish-config <file>',
      'add the publish tool from a JSON file: {"s3": {...}} or {"directory": ...}, see the README',
    );
}

const s3Schema = z
  .object({
    bucket: z.string().min(1),
    prefix: z.string().optional(),
    region: z.string().optional(),
    endpoint: z.string().url().optional(),
    forcePathStyle: z.boolean().optional(),
    partSizeBytes: z.number().int().optional(),
    queueSize: z.number().int().optional(),
  })
  .strict();
const configSchema = z
  .object({
    s3: s3Schema.optional(),
    directory: z.string().optional(),
    baseUrl: z.string().optional(),
    maxBytes: z.number().int().positive().optional(),
    defaultExpiresInSeconds: z.number().int().positive().optional(),
    maxExpiresInSeconds: z.number().int().positive().optional(),
  })
  .strict();

/**
 * Builds the publisher the flags name.
 * @throws SandkitError `invalid_option` for two publishers at once, a bad config file or a
 *   `--publish-s3` without a bucket; SandboxError `sandbox_unavailable` (from `@sandkit/tools/s3`)
 *   naming the install command when the AWS SDK is not installed.
 */
export async function publishSetup(flags: PublishFlags): Promise<PublishSetup> {
  const given = [flags.publishS3, flags.publishDir, flags.publishConfig].filter((flag) => flag !== undefined);
  if (given.length > 1) invalid('give one of --publish-s3, --publish-dir and --publish-config');
  if (flags.publishBaseUrl !== undefined && flags.publishDir === undefined) {
    invalid('--publish-base-url needs --publish-dir');
  }
  if (flags.publishS3 !== undefined) {
    const [bucket = '', ...rest] = flags.publishS3.replace(/^s3:\/\//, '').split('/');
    if (bucket === '') invalid(`--publish-s3 needs bucket or bucket/prefix, got "${flags.publishS3}"`);
    return { publisher: await s3Publisher({ bucket, prefix: rest.join('/') }) };
  }
  if (flags.publishDir !== undefined) {
    return {
      publisher: createLocalDirectoryPublisher({
        directory: resolve(flags.publishDir),
        ...(flags.publishBaseUrl ? { baseUrl: flags.publishBaseUrl } : {}),
      }),
    };
  }
  if (flags.publishConfig === undefined) return {};
  const config = await readConfig(flags.publishConfig);
  const { s3, directory, baseUrl, ...bounds } = config;
  if ((s3 === undefined) === (directory === undefined)) {
    invalid(`${flags.publishConfig}: give exactly one of "s3" and "directory"`);
  }
  const publisher = s3
    ? await s3Publisher(s3)
    : createLocalDirectoryPublisher({ directory: resolve(directory!), ...(baseUrl ? { baseUrl } : {}) });
  return { publisher, publish: bounds };
}

async function s3Publisher(options: z.infer<typeof s3Schema>): Promise<AssetPublisher> {
  const { createS3Publisher } = await import('@sandkit/tools/s3');
  return createS3Publisher(options);
}

async function readConfig(path: string): Promise<z.infer<typeof configSchema>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return invalid(`--publish-config ${path} cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return invalid(`--publish-config ${path} is not JSON: ${(error as Error).message}`);
  }
  const parsed = configSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`);
    invalid(`--publish-config ${path}: ${issues.join('; ')}`);
  }
  return parsed.data;
}

function invalid(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
