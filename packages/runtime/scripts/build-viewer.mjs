// Writes dist/view/viewer.js and dist/view/viewer.css, the `sandkit view` report's bundled browser
// code (diff2html, uPlot and src/view/client), after tsc has built dist/: an installed package
// inlines them into each report and never runs esbuild. Run by `pnpm build` (and so by prepack).
import { writeFile } from 'node:fs/promises';

const { bundleViewer } = await import('../dist/view/bundle-viewer.js');
const assets = await bundleViewer();
await writeFile(new URL('../dist/view/viewer.js', import.meta.url), assets.js);
await writeFile(new URL('../dist/view/viewer.css', import.meta.url), assets.css);
console.log(
  `build-viewer: dist/view/viewer.js ${assets.js.length} bytes, viewer.css ${assets.css.length} bytes`,
);
