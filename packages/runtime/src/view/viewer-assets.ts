/**
 * The report's bundled browser code: from `dist/view/viewer.js` and `viewer.css` (written by
 * `pnpm build`) when running the built package, else bundled from source once per process.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { SandkitError, SandkitErrorCode } from '@sandkit/core';

/** The bundled browser code: one script and one stylesheet, inlined into each report. */
export interface ViewerAssets {
  js: string;
  css: string;
}

let cached: Promise<ViewerAssets> | undefined;

/**
 * @throws SandkitError `not_found` when the built package lacks its viewer files (a build without
 *   `scripts/build-viewer.mjs`).
 */
export function loadViewerAssets(): Promise<ViewerAssets> {
  cached ??= import.meta.url.endsWith('.ts') ? fromSource() : fromDist();
  return cached;
}

async function fromSource(): Promise<ViewerAssets> {
  const { bundleViewer } = await import('./bundle-viewer.js');
  return bundleViewer();
}

async function fromDist(): Promise<ViewerAssets> {
  const js = new URL('./viewer.js', import.meta.url);
  const css = new URL('./viewer.css', import.meta.url);
  try {
    return { js: await readFile(js, 'utf8'), css: await readFile(css, 'utf8') };
  } catch (cause) {
    throw new SandkitError({
      code: SandkitErrorCode.notFound,
      message: `the report viewer is missing from this installation (${js.pathname}): reinstall @sandkit/runtime, or in a checkout run pnpm build`,
      cause,
    });
  }
}
