"""Runs grading.py's get_eval_report of the published SWE-bench harness on every public log under
<grade fixtures>/logs (instance dirs without patch.diff: test_output.txt + the official report.json
of that run), with the instance's row of the dataset*.jsonl beside them, and prints, per instance,
whether what it computes now on the (trimmed) log equals that report.json: resolved,
patch_successfully_applied and every tests_status list. Exits 1 on any difference.
Usage: check-public-reports.py <grade fixtures dir>; see run.sh."""
import glob
import json
import os
import sys
from types import SimpleNamespace

from swebench.harness.grading import get_eval_report

fixtures = sys.argv[1]
rows = {}
for dataset in glob.glob(os.path.join(fixtures, "dataset*.jsonl")):
    with open(dataset) as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                rows[row["instance_id"]] = row
same = differ = 0
for log in sorted(glob.glob(os.path.join(fixtures, "logs", "run_evaluation", "*", "*", "*", "test_output.txt"))):
    folder = os.path.dirname(log)
    if os.path.exists(os.path.join(folder, "patch.diff")):
        continue
    instance_id = os.path.basename(folder)
    row = rows[instance_id]
    spec = SimpleNamespace(
        instance_id=instance_id, repo=row["repo"], version=row["version"],
        FAIL_TO_PASS=json.loads(row["FAIL_TO_PASS"]), PASS_TO_PASS=json.loads(row["PASS_TO_PASS"]))
    # the public run kept no patch.diff; any non-empty patch stands for "a patch was submitted"
    prediction = {"instance_id": instance_id, "model_name_or_path": os.path.basename(os.path.dirname(folder)),
                  "model_patch": "(not kept by the public run)"}
    now = get_eval_report(spec, prediction, log, include_tests_status=True)[instance_id]
    with open(os.path.join(folder, "report.json")) as f:
        then = json.load(f)[instance_id]
    keys = ["resolved", "patch_successfully_applied", "tests_status"]
    diffs = [k for k in keys if now.get(k) != then.get(k)]
    if diffs:
        differ += 1
        print(f"{instance_id}: DIFFERS in {', '.join(diffs)}")
    else:
        same += 1
        print(f"{instance_id}: same as its official report.json (resolved={now['resolved']})")
print(f"official grader on the trimmed public logs: {same} same as their report.json, {differ} differ")
sys.exit(1 if differ else 0)
