/**
 * The import structure of packages/*\/src, checked by test/structure/import-structure.test.ts
 * (and by hand: `pnpm exec depcruise packages/*\/src`). See DESIGN.md "Layers" and the package
 * READMEs. Type-only imports count: a circle of types is still a circle to read.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const adapters = '^packages/sandbox-adapters/src/';
/** Folders of sandbox-adapters shared by every vendor; any other folder there is a vendor's. */
const shared = ['capabilities', 'capture', 'conformance', 'exec-options', 'network', 'owner', 'paths'];
const sharedFolder = `${adapters}(${shared.join('|')})/`;
const vendorFolder = `${adapters}(?!(?:${shared.join('|')})/)[^/]+/`;
/**
 * Folders above the vendors: `serve/` is `sandkit serve`, the far end of the HTTP adapter's wire.
 * It serves local-adapter sandboxes and speaks http/transport's protocol, so it may import both;
 * no vendor imports it.
 */
const above = ['serve'];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle between files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-circular',
      comment:
        'No import running back up: the folders of a package form no circle either. Not yet held in runtime/src/eval, where grade/, instance/ and report/ still import each other (instance/evaluate-instance grades with grade/grade-log; grade/ takes the markers, statuses and result types from instance/).',
      severity: 'error',
      scope: 'folder',
      from: { pathNot: '^packages/runtime/src/eval/(grade|instance|report)$' },
      to: { circular: true },
    },
    {
      name: 'core-imports-nothing-of-ours',
      severity: 'error',
      from: { path: '^packages/core/src/' },
      to: { path: '^packages/(tools|sandbox-adapters|runtime)/' },
    },
    {
      name: 'tools-below-adapters-and-runtime',
      comment: 'core ← tools: tools never import an adapter or the runtime.',
      severity: 'error',
      from: { path: '^packages/tools/src/' },
      to: { path: '^packages/(sandbox-adapters|runtime)/' },
    },
    {
      name: 'adapters-below-tools-and-runtime',
      comment: 'core ← sandbox-adapters ← runtime: adapters never import the tools or the runtime.',
      severity: 'error',
      from: { path: '^packages/sandbox-adapters/src/' },
      to: { path: '^packages/(tools|runtime)/' },
    },
    {
      name: 'transport-below-sandbox',
      comment:
        "A vendor's transport/ is its wire and knows nothing of sandboxes: it never imports its vendor's sandbox floor.",
      severity: 'error',
      from: { path: `${adapters}([^/]+)/transport/` },
      to: { path: `${adapters}$1/`, pathNot: `${adapters}$1/transport/` },
    },
    {
      name: 'vendors-apart',
      comment: 'A vendor folder never imports another vendor: what two share goes to a shared folder.',
      severity: 'error',
      from: { path: `${adapters}((?!(?:${[...shared, ...above].join('|')})/)[^/]+)/` },
      to: { path: vendorFolder, pathNot: `${adapters}$1/` },
    },
    {
      name: 'nothing-imports-serve',
      comment: 'serve/ sits above the vendors: no vendor or shared folder imports it.',
      severity: 'error',
      from: { path: adapters, pathNot: `${adapters}serve/` },
      to: { path: `${adapters}serve/` },
    },
    {
      name: 'shared-below-vendors',
      comment: 'The shared folders (capture, conformance, network, …) never import a vendor.',
      severity: 'error',
      from: { path: sharedFolder },
      to: { path: vendorFolder },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@sandkit/source', 'import', 'types', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.json'],
    },
  },
};
