"""Runs the published SWE-bench harness's own script builders on every row of its spec table and
prints them as JSON, for compare.ts. Usage (see check.sh): python3 official-scripts.py > out.json
with the SWE-bench package (its harness/constants and harness/test_spec) importable.
Needs unidiff (Debian: python3-unidiff). Network helpers of SWE-bench are never called."""
import json
import sys

from swebench.harness.constants import MAP_REPO_VERSION_TO_SPECS
from swebench.harness.test_spec.create_scripts import make_eval_script_list

# Three test patches: one modified test; a dropped data file, an added JS test and a Rust file;
# a Django-style module path with a snapshot beside it.
PATCHES = [
    "diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n@@ -1 +1 @@\n-a\n+b\n",
    "diff --git a/tests/data/x.json b/tests/data/x.json\n--- a/tests/data/x.json\n+++ b/tests/data/x.json\n@@ -1 +1 @@\n-a\n+b\n"
    "diff --git a/client/new/test/index.js b/client/new/test/index.js\nnew file mode 100644\n--- /dev/null\n+++ b/client/new/test/index.js\n@@ -0,0 +1 @@\n+x\n"
    "diff --git a/src/m.rs b/src/m.rs\n--- a/src/m.rs\n+++ b/src/m.rs\n@@ -1 +1 @@\n-a\n+b\n",
    "diff --git a/tests/admin/tests.py b/tests/admin/tests.py\n--- a/tests/admin/tests.py\n+++ b/tests/admin/tests.py\n@@ -1 +1 @@\n-a\n+b\n"
    "diff --git a/packages/p/test/__snapshots__/x.js.snap b/packages/p/test/__snapshots__/x.js.snap\n--- a/packages/p/test/__snapshots__/x.js.snap\n+++ b/packages/p/test/__snapshots__/x.js.snap\n@@ -1 +1 @@\n-a\n+b\n",
]

rows = []
for repo, versions in MAP_REPO_VERSION_TO_SPECS.items():
    for version, specs in versions.items():
        for index, patch in enumerate(PATCHES):
            instance = {
                "repo": repo,
                "version": version,
                "instance_id": repo.replace("/", "__") + "-" + version,
                "base_commit": "abc123",
                "test_patch": patch,
            }
            try:
                lines = make_eval_script_list(instance, specs, "testbed", "/testbed", "abc123", patch)
                script = "\n".join(["#!/bin/bash", "set -uxo pipefail"] + lines) + "\n"
            except KeyError as error:  # rows with no test_cmd (dbt-core)
                script = None
            rows.append({"instance": instance, "script": script})
json.dump({"patches": PATCHES, "rows": rows}, sys.stdout)
