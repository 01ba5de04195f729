// Fails when a source map in an unpacked package points at a file the package does not ship.
// Usage: node .ci/check-source-maps.mjs <unpacked package dir>
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(process.argv[2]);
const missing = [];
let maps = 0;
for (const entry of readdirSync(root, { recursive: true })) {
  if (!String(entry).endsWith('.map')) continue;
  maps += 1;
  const file = join(root, String(entry));
  const map = JSON.parse(readFileSync(file, 'utf8'));
  for (const source of map.sources) {
    const target = resolve(dirname(file), map.sourceRoot ?? '', source);
    if (!existsSync(target)) missing.push(`${relative(root, file)} → ${source}`);
  }
}
if (maps === 0) missing.push('no source maps at all');
if (missing.length > 0) {
  console.error(`source maps point at files that do not ship:\n${missing.join('\n')}`);
  process.exit(1);
}
console.log(`pack smoke: ${maps} source maps, every source ships`);
