#!/usr/bin/env bash
# Checks the spec table against the published SWE-bench harness: builds every row's evaluation
# script with SWE-bench's own code and with sandkit's, and compares them byte for byte.
#   scripts/spec-parity/check.sh <SWE-bench git dir> [ref]     (ref defaults to v4.1.0)
# Needs a python3 with unidiff (Debian: apt-get install python3-unidiff; choose the interpreter
# with PYTHON=/usr/bin/python3) and pnpm (tsx).
set -euo pipefail
repo=${1:?usage: check.sh <SWE-bench git dir, bare or not> [ref]}
ref=${2:-v4.1.0}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/swebench/harness/constants" "$work/swebench/harness/test_spec"
touch "$work/swebench/__init__.py" "$work/swebench/harness/__init__.py" "$work/swebench/harness/test_spec/__init__.py"
for path in $(git -C "$repo" ls-tree --name-only "$ref" swebench/harness/constants/ swebench/harness/test_spec/); do
  git -C "$repo" show "$ref:$path" > "$work/$path"
done
# test_spec/__init__.py imports test_spec.py and with it the Dockerfile templates: not needed here.
: > "$work/swebench/harness/test_spec/__init__.py"
# Only get_modified_files of harness/utils.py is needed; its other imports pull in datasets and docker.
git -C "$repo" show "$ref:swebench/harness/utils.py" |
  awk '/^def get_modified_files/{p=1} p&&/^def /&&!/get_modified_files/{exit} p' > "$work/utils_part.py"
{ echo 'from unidiff import PatchSet'; cat "$work/utils_part.py"
  echo 'def load_cached_environment_yml(instance_id): return None'; } > "$work/swebench/harness/utils.py"
# test_spec/python.py imports requests for its network helpers, which the eval script never calls.
echo '' > "$work/requests.py"
PYTHONPATH="$work" "${PYTHON:-python3}" "$here/official-scripts.py" | (cd "$here/../.." && pnpm exec tsx scripts/spec-parity/compare.ts)
