#!/usr/bin/env bash
# Package smoke test, outside the workspace: packs every package (prepack builds it), installs the
# tarballs with npm into a temporary "type": "module" app under /tmp, then
#   - runs .ci/pack-smoke/smoke.mjs with plain node (local adapter, createCodingTools, executeToolCall);
#   - type-checks .ci/pack-smoke/consumer-*.ts under NodeNext and under bundler (skipLibCheck false;
#     the runtime consumer adds the DOM lib and @types/json-schema, which the AI SDK's and the MCP
#     SDK's own declarations need);
#   - runs the installed bin: `npx sandkit --help`, `sandkit call`, `sandkit mcp` (official MCP
#     client, .ci/pack-smoke/cli.mjs), `npx sandkit eval --example` and the HTML reports it writes,
#     `sandkit view` (the viewer bundled at pack time, no esbuild installed);
#   - runs .ci/pack-smoke/publish.mjs: without the AWS SDK, `@sandkit/tools/s3` and
#     `sandkit call --publish-s3` name the install command; the publish tool round-trips a file
#     through the local directory publisher (API and bin);
#   - runs `sandkit grade` on worker threads (.ci/pack-smoke/grade.mjs: the API with jobs 3 against
#     jobs 1, then the bin), so that the built package's worker path runs without tsx;
#   - installs the lowest supported peers in a second app (.ci/pack-smoke-floor) and runs the tools
#     (zod 4.0.0), the E2B adapter on the envd stand-in (e2b 2.19.4), the publish tool to s3rver
#     through the AWS SDK 3.729.0 (publish-s3.mjs) and, with DOCKER_HOST set, the Docker adapter
#     (dockerode 4);
#   - checks that every source map in every tarball points at a file the tarball ships, and runs
#     publint and @arethetypeswrong/cli (profile esm-only: the packages are ESM only) on every
#     tarball; both must be clean.
# Needs the npm registry (the tarballs' dependencies, publint, attw). Usage: bash .ci/pack-smoke.sh
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
packages=(core tools sandbox-adapters runtime)
typescript=$(node -p "require('./node_modules/typescript/package.json').version")
publint=publint@0.3.25
attw=@arethetypeswrong/cli@0.18.5

work=$(mktemp -d /tmp/sandkit-pack-smoke.XXXXXX)
trap 'rm -rf "$work"' EXIT
step() { printf "\npack smoke [%ss]: %s\n" "$SECONDS" "$*"; }

step "pack ${packages[*]}"
mkdir "$work/tarballs"
for p in "${packages[@]}"; do
  (cd "packages/$p" && pnpm pack --pack-destination "$work/tarballs" >/dev/null)
done
ls "$work/tarballs"

step "npm install the tarballs into $work/app"
cp -r .ci/pack-smoke "$work/app"
cd "$work/app"
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
# zod 4.1.8: the runtime peer range's floor (the AI SDK's).
npm install --no-save --loglevel=error "$work"/tarballs/*.tgz zod@4.1.8 "typescript@$typescript" \
  '@types/node@^20' '@types/json-schema@^7'
[ ! -e node_modules/@types/dockerode ] || { echo "pack smoke: @types/dockerode got installed" >&2; exit 1; }

step "plain node: smoke.mjs"
node smoke.mjs

step "tsc --noEmit, NodeNext and bundler, skipLibCheck false"
for config in nodenext bundler nodenext-runtime bundler-runtime; do
  echo "tsconfig.$config.json"
  npx --no-install tsc -p "tsconfig.$config.json"
done

step "installed bin: npx sandkit --help"
npx --no-install sandkit --help >/dev/null

step "installed bin: sandkit call, sandkit mcp"
node cli.mjs

step "publish: without the AWS SDK the install command; local directory round trip (API and bin)"
node publish.mjs

step "sandkit grade on worker threads (API and bin), plain node"
node grade.mjs "$repo/packages/runtime/test/eval/fixtures/grade"

step "installed bin: --sandbox docker / e2b without their optional peers is a usage error (exit 2) naming the install"
for kind in docker e2b; do
  set +e
  npx --no-install sandkit eval --example --sandbox "$kind" --image some-image --out "$work/no-$kind" 2> "$work/no-$kind.txt"
  code=$?
  set -e
  want=$([ "$kind" = docker ] && echo 'npm install dockerode@5' || echo 'npm install e2b@2 @e2b/code-interpreter@2')
  [ "$code" = 2 ] && grep -qF "$want" "$work/no-$kind.txt" && [ ! -e "$work/no-$kind" ] ||
    { echo "pack smoke: --sandbox $kind without its package: exit $code, $(cat "$work/no-$kind.txt")" >&2; exit 1; }
done

step "installed bin: npx sandkit eval --example"
npx --no-install sandkit eval --example --cache-dir "$work/cache" --out "$work/eval" | tee "$work/eval.txt"
grep -q 'Resolved: 6 of 6' "$work/eval.txt" || { echo "pack smoke: gold run not 6 of 6" >&2; exit 1; }
grep -q 'Resolved: 3 of 6' "$work/eval.txt" || { echo "pack smoke: wrong predictions not 3 of 6 (official patch chain)" >&2; exit 1; }

step "installed bin: npx sandkit run --example --eval --atif (the scripted stand-in through @ai-sdk/anthropic, log-update, ATIF)"
npx --no-install sandkit run --example --eval --atif --cache-dir "$work/cache" --out "$work/run" > "$work/run.txt" 2> "$work/run-err.txt" ||
  { echo "pack smoke: sandkit run --example failed: $(cat "$work/run-err.txt")" >&2; exit 1; }
grep -qE '\| 6 \| 6 \| 100\.0% \|' "$work/run.txt" || { echo "pack smoke: sandkit run --example --eval not 6 of 6" >&2; exit 1; }
grep -q "scripted stand-in" "$work/run.txt" || { echo "pack smoke: sandkit run --example does not say its model is the stand-in" >&2; exit 1; }
atif=$(ls "$work"/run/*/*.atif.json | head -1)
node --input-type=module -e "
import { readFileSync } from 'node:fs';
import { atifTrajectorySchema } from '@sandkit/runtime';
const doc = atifTrajectorySchema.parse(JSON.parse(readFileSync(process.argv[1], 'utf8')));
if (doc.schema_version !== 'ATIF-v1.7') throw new Error('not ATIF-v1.7: ' + doc.schema_version);
" "$atif"
step "installed bin: the HTML reports eval printed, and sandkit view (the viewer bundled at pack time, no esbuild)"
grep -qF "$work/eval/compare.html (gold against wrong)" "$work/eval.txt" || { echo "pack smoke: eval printed no report paths" >&2; exit 1; }
[ ! -e node_modules/esbuild ] || { echo "pack smoke: esbuild got installed with the packages" >&2; exit 1; }
npx --no-install sandkit view "$work/eval/wrong" --out "$work/view.html" > "$work/view.txt"
grep -qF "$work/view.html" "$work/view.txt" && grep -q 'id="sandkit-data"' "$work/view.html" && grep -q 'sandkit-mini__ledger-1' "$work/view.html" ||
  { echo "pack smoke: sandkit view wrote no report: $(cat "$work/view.txt")" >&2; exit 1; }

step "lowest supported peers: zod 4.0.0, e2b 2.19.4 + @e2b/code-interpreter 2.4.2, dockerode 4, AWS SDK 3.729.0 (+ s3rver)"
cp -r "$repo/.ci/pack-smoke-floor" "$work/floor"
cd "$work/floor"
npm install --no-save --loglevel=error "$work"/tarballs/sandkit-{core,tools,sandbox-adapters}-*.tgz \
  zod@4.0.0 e2b@2.19.4 @e2b/code-interpreter@2.4.2 dockerode@4 \
  @aws-sdk/client-s3@3.729.0 @aws-sdk/s3-request-presigner@3.729.0 s3rver@3.7.1
node tools.mjs
node e2b.mjs
node publish-s3.mjs
if [ -n "${DOCKER_HOST:-}" ]; then node docker.mjs; else echo "pack smoke: DOCKER_HOST unset, dockerode 4 not tried"; fi

cd "$repo"
for tarball in "$work"/tarballs/*.tgz; do
  step "publint $(basename "$tarball")"
  mkdir -p "$work/lint" && rm -rf "$work/lint/package" && tar xzf "$tarball" -C "$work/lint"
  node .ci/check-source-maps.mjs "$work/lint/package"
  npx --yes "$publint" run "$work/lint/package" --strict --pack false
  step "attw --profile esm-only $(basename "$tarball")"
  npx --yes -p "$attw" attw "$tarball" --profile esm-only
done
step "all checks passed"
