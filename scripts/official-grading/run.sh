#!/usr/bin/env bash
# Runs the published SWE-bench grader on sandkit's real logs and writes what it outputs as fixtures:
#   1. the official log parsers (swebench/harness/log_parsers/*.py through grading.py's
#      get_logs_eval) on every case of packages/runtime/test/eval/grade/parser-parity-cases.ts →
#      packages/runtime/test/eval/fixtures/official-parsers/statuses.json;
#   2. grading.py's get_eval_report on every instance dir of the grade fixtures → its report.json;
#      on the public logs (dirs without patch.diff) it is compared with the report.json the
#      public run's harness wrote instead (check-public-reports.py).
# Then prints how many (log, repository) status maps sandkit agrees on (compare.ts).
#   scripts/official-grading/run.sh <SWE-bench git dir> [ref]     (ref defaults to v4.1.0)
# SWE-bench's code is extracted into a temp dir and run there with Debian's python3 (no package
# needed); only what grading needs is extracted, and the imports it does not need (docker,
# datasets, the Dockerfile templates) are replaced by stubs. Nothing of it is committed.
set -euo pipefail
repo=${1:?usage: run.sh <SWE-bench git dir, bare or not> [ref]}
ref=${2:-v4.1.0}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
h="$work/swebench/harness"
mkdir -p "$h/constants" "$h/log_parsers" "$h/test_spec"
touch "$work/swebench/__init__.py" "$h/__init__.py" "$h/test_spec/__init__.py"
for path in $(git -C "$repo" ls-tree --name-only "$ref" swebench/harness/constants/ swebench/harness/log_parsers/) \
  swebench/harness/grading.py; do
  git -C "$repo" show "$ref:$path" > "$work/$path"
done
# The parsers import TestSpec for their type hints only; grading reads repo, version, instance_id,
# FAIL_TO_PASS and PASS_TO_PASS from it (official-*.py pass a SimpleNamespace).
echo 'class TestSpec: pass' > "$h/test_spec/test_spec.py"
# Of harness/utils.py the parsers need only ansi_escape; its other imports pull in datasets and docker.
{ echo 'import re'
  git -C "$repo" show "$ref:swebench/harness/utils.py" |
    awk '/^def ansi_escape/{p=1; print; next} p&&/^(def|class) /{exit} p'; } > "$h/utils.py"
export PYTHONPATH="$work"
python=${PYTHON:-/usr/bin/python3}
out="$root/packages/runtime/test/eval/fixtures/official-parsers"
mkdir -p "$out"
(cd "$root" && pnpm exec tsx --conditions=@sandkit/source scripts/official-grading/cases.ts) | "$python" "$here/official-statuses.py" > "$out/statuses.json"
"$python" "$here/official-reports.py" "$root/packages/runtime/test/eval/fixtures/grade"
"$python" "$here/check-public-reports.py" "$root/packages/runtime/test/eval/fixtures/grade"
(cd "$root" && pnpm exec tsx --conditions=@sandkit/source scripts/official-grading/compare.ts)
