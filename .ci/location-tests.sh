#!/usr/bin/env bash
# The tests that depend on where the clone is, run in a fresh clone of this checkout under a mode 700
# directory that no other user can enter (as a clone in /root is): a test that hands the checkout to
# another user (say `nobody`) fails here. Cheap: one install from the warm store, only these files.
# Usage: bash .ci/location-tests.sh   (runs as root on the CI machine; commit first: it clones HEAD)
set -euo pipefail
cd "$(dirname "$0")/.."
files=(
  # runs the CLI with file permissions binding (setpriv as root, formerly `runuser -u nobody`)
  packages/runtime/test/eval/grade/run-grade.test.ts
)
parent=$(mktemp -d /tmp/sandkit-mode700-XXXXXX) # mktemp -d makes it mode 700
trap 'rm -rf "$parent"' EXIT
git clone -q "$PWD" "$parent/sandkit"
chmod 700 "$parent/sandkit"
cd "$parent/sandkit"
pnpm install --frozen-lockfile --prefer-offline > "$parent/install.log" 2>&1 || {
  cat "$parent/install.log" >&2
  exit 1
}
CI= pnpm vitest run "${files[@]}"
echo "CI: the location-sensitive tests pass in a clone under a mode 700 directory ($parent/sandkit)"
