/**
 * The name of an instance's environment image as the official SWE-bench harness names it:
 * `TestSpec.instance_image_key` in `swebench/harness/test_spec/test_spec.py` (SWE-bench v4.1.0,
 * commit 726c5461e2ef52d83cf1ea2107870a8bb3328d57) builds
 * `sweb.eval.<arch>.<instance_id lower-cased>:<tag>` and, for a remote namespace, prefixes
 * `<namespace>/` and replaces every `__` with `_1776_` (Docker Hub refuses `__`). The published
 * images are `swebench/sweb.eval.x86_64.<id>:latest`.
 * @module
 */
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/** How instance images are named. */
export interface ImageNaming {
  /** Registry namespace; `null` = local image names without `_1776_` (the harness's `--namespace none`). @default 'swebench' */
  namespace: string | null;
  /** Image tag. @default 'latest' */
  tag: string;
  /** Architecture part of the name. @default 'x86_64' */
  arch: string;
  /**
   * A template that replaces the official name: `{id}` (the instance id, lower case, `__` kept),
   * `{id_1776}` (lower case, `__` → `_1776_`), `{namespace}`, `{tag}`, `{arch}`, `{repo}`
   * (`owner__name`). `null` = the official name.
   */
  template: string | null;
}

/** The official defaults: `swebench` namespace, `latest`, `x86_64`, no template. */
export const officialImageNaming: ImageNaming = {
  namespace: 'swebench',
  tag: 'latest',
  arch: 'x86_64',
  template: null,
};

/** The placeholders of an image name template, in the order the help lists them. */
export const imageTemplateFields = ['id', 'id_1776', 'namespace', 'tag', 'arch', 'repo'] as const;

/**
 * Checks that `template` uses only {@link imageTemplateFields} and at least one per-instance
 * field (`{id}`, `{id_1776}` or `{repo}`): else every instance would get the same name.
 * @throws SandkitError `invalid_option` naming the unknown placeholder and the known ones.
 */
export function checkImageTemplate(template: string): void {
  const used = [...template.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] as string);
  const known = imageTemplateFields.map((field) => `{${field}}`).join(', ');
  const unknown = used.find((name) => !(imageTemplateFields as readonly string[]).includes(name));
  if (unknown !== undefined)
    invalidTemplate(
      `--image-template ${template} has an unknown placeholder {${unknown}}; the placeholders are ${known}`,
    );
  if (/[{}]/.test(template.replace(/\{[^{}]*\}/g, '')))
    invalidTemplate(`--image-template ${template} has an unmatched { or }; write placeholders as ${known}`);
  if (!used.some((name) => name === 'id' || name === 'id_1776' || name === 'repo'))
    invalidTemplate(
      `--image-template ${template} names the same image for every instance; put {id} or {id_1776} in it (or {repo}), or give that one image with --image`,
    );
}

/**
 * The image of `instance` under `naming`.
 * @throws SandkitError `invalid_option` when the template is malformed (see {@link checkImageTemplate}).
 */
export function instanceImageName(
  instance: { instance_id: string; repo: string },
  naming: ImageNaming,
): string {
  const id = instance.instance_id.toLowerCase();
  if (naming.template !== null) {
    checkImageTemplate(naming.template);
    const fields: Record<(typeof imageTemplateFields)[number], string> = {
      id,
      id_1776: id.replaceAll('__', '_1776_'),
      namespace: naming.namespace ?? '',
      tag: naming.tag,
      arch: naming.arch,
      repo: instance.repo.replace('/', '__'),
    };
    return naming.template.replace(
      /\{([^}]*)\}/g,
      (_, name: string) => fields[name as (typeof imageTemplateFields)[number]],
    );
  }
  const key = `sweb.eval.${naming.arch}.${id}:${naming.tag}`;
  return naming.namespace === null ? key : `${naming.namespace}/${key}`.replaceAll('__', '_1776_');
}

function invalidTemplate(message: string): never {
  throw new SandkitError({ code: SandkitErrorCode.invalidOption, message });
}
