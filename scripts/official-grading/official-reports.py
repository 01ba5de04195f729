"""Runs grading.py's get_eval_report of the published SWE-bench harness on every instance dir
(<run>/<model>/<instance_id>/test_output.txt + patch.diff) under <grade fixtures>/logs, with the
instance's row of the dataset*.jsonl beside them, and writes its report.json there (indent 4, as
run_evaluation writes it). A dir without patch.diff holds a public run's log and the report.json
the official harness wrote for it: left alone here (check-public-reports.py compares with it).
Usage: official-reports.py <grade fixtures dir>; see run.sh."""
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
for log in sorted(glob.glob(os.path.join(fixtures, "logs", "run_evaluation", "*", "*", "*", "test_output.txt"))):
    folder = os.path.dirname(log)
    if not os.path.exists(os.path.join(folder, "patch.diff")):
        continue
    row = rows[os.path.basename(folder)]
    spec = SimpleNamespace(
        instance_id=row["instance_id"], repo=row["repo"], version=row["version"],
        FAIL_TO_PASS=json.loads(row["FAIL_TO_PASS"]), PASS_TO_PASS=json.loads(row["PASS_TO_PASS"]))
    with open(os.path.join(folder, "patch.diff")) as f:
        patch = f.read()
    prediction = {"instance_id": row["instance_id"], "model_name_or_path": os.path.basename(os.path.dirname(folder)),
                  "model_patch": patch}
    report = get_eval_report(spec, prediction, log, include_tests_status=True)
    with open(os.path.join(folder, "report.json"), "w") as f:
        f.write(json.dumps(report, indent=4))
    print(f"{row['instance_id']}: resolved={report[row['instance_id']]['resolved']}", file=sys.stderr)
