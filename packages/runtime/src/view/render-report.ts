/**
 * The report as one self-contained HTML file: the bundled viewer inlined, the data as JSON
 * script elements (never executed; `<` written as `\u003c`, so no text in them can close the
 * element): the table's fields of every instance in one, each instance's details (tests, log,
 * patch, trajectory) in one of its own that the page parses when the instance is opened, and a Content-Security-Policy that allows only that one script (by its SHA-256), no
 * network at all (`default-src 'none'`), and inline styles. Markup from a log, a patch or a
 * model's output is never parsed: the viewer sets it as text, and were anything to slip through,
 * the policy would keep a `<script>` or an `onerror=` from running.
 * @module
 */
import { createHash } from 'node:crypto';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';
import type { ViewerAssets } from './viewer-assets.js';
import { detailElementId, instanceDetailKeys, type ViewData } from './model/view-data.js';

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

/** JSON safe inside a `<script>` element: `<`, U+2028 and U+2029 escaped. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * The HTML text of the report.
 * @throws SandkitError `internal` when the bundled script or stylesheet holds a closing tag that
 *   would end its element early (a bundling bug).
 */
export function renderReport(data: ViewData, assets: ViewerAssets, title: string): string {
  if (/<\/script/i.test(assets.js) || /<\/style/i.test(assets.css))
    throw new SandkitError({
      code: SandkitErrorCode.internal,
      message:
        'the bundled viewer holds a closing </script> or </style> tag: a sandkit bug, please report it',
    });
  const details: string[] = [];
  const summary = {
    ...data,
    runs: data.runs.map((run, r) => ({
      ...run,
      instances: run.instances.map((instance, i) => {
        const rest: Record<string, unknown> = { ...instance };
        const detail: Record<string, unknown> = {};
        for (const key of instanceDetailKeys) {
          detail[key] = instance[key];
          delete rest[key];
        }
        details.push(
          `<script type="application/json" id="${detailElementId(r, i)}">${scriptSafeJson(detail)}</script>`,
        );
        return rest;
      }),
    })),
  };
  const hash = createHash('sha256').update(assets.js).digest('base64');
  const policy = `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<link rel="icon" href="data:,">',
    `<style>${assets.css}</style>`,
    '</head>',
    '<body>',
    '<div id="app"></div>',
    `<script type="application/json" id="sandkit-data">${scriptSafeJson(summary)}</script>`,
    ...details,
    `<script>${assets.js}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
