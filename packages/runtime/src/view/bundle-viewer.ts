/**
 * Bundles the report's browser code (`client/main.ts`, with diff2html, uPlot and their CSS) into
 * one script and one stylesheet with esbuild, for `renderReport` to inline. `pnpm build` writes
 * the result into `dist/view/` (`scripts/build-viewer.mjs`), so an installed package ships it and
 * never needs esbuild (this file is left out of the package); from source (tests, `pnpm sandkit`) it is bundled in memory on first use.
 * The libraries' license comments are kept at the end of the script.
 * @module
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The client entry, from this file's place in `src/view/` or `dist/view/` (both two levels below the package). */
export const viewerEntry = fileURLToPath(new URL('../../src/view/client/main.ts', import.meta.url));

/**
 * Runs esbuild (minified IIFE for browsers of the last years) and returns the script and the
 * stylesheet (a `ViewerAssets`, typed here by its shape: viewer-assets.ts imports this file).
 */
export async function bundleViewer(): Promise<{ js: string; css: string }> {
  const result = await build({
    entryPoints: [viewerEntry],
    bundle: true,
    minify: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
    legalComments: 'eof',
    write: false,
    outdir: 'viewer',
    logLevel: 'silent',
  });
  const js = result.outputFiles.find((file) => file.path.endsWith('.js'))?.text ?? '';
  const css = result.outputFiles.find((file) => file.path.endsWith('.css'))?.text ?? '';
  return { js, css };
}
