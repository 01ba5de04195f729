/** CSS files imported for their side effect: esbuild bundles them into the report's `<style>`. */
declare module '*.css';
