"""Runs the published SWE-bench log parsers, through grading.py's get_logs_eval, on every case that
cases.ts prints (JSON on stdin) and prints their status maps as JSON (the fixture
official-parsers/statuses.json). Identical maps are stored once. Usage: see run.sh."""
import json
import os
import sys
import tempfile
from types import SimpleNamespace

from swebench.harness.grading import get_logs_eval

cases = json.load(sys.stdin)
maps, index, rows = [], {}, []
with tempfile.TemporaryDirectory() as tmp:
    log_fp = os.path.join(tmp, "test_output.txt")
    for case in cases:
        with open(log_fp, "w") as f:
            f.write(case["text"])
        spec = SimpleNamespace(repo=case["repo"], version=case["version"], instance_id=case["instance_id"])
        row = {key: case[key] for key in ("log", "repo", "version", "instance_id")}
        try:
            status_map, found = get_logs_eval(spec, log_fp)
            key = json.dumps(status_map, sort_keys=True)
            if key not in index:
                index[key] = len(maps)
                maps.append(status_map)
            row.update(found=found, statuses=index[key])
        except Exception as error:  # a parser that raises on a log: recorded, not fatal
            row.update(error=f"{type(error).__name__}: {error}")
        rows.append(row)
json.dump(
    {"source": "SWE-bench v4.1.0 (726c5461e2ef52d83cf1ea2107870a8bb3328d57) grading.get_logs_eval",
     "cases": rows, "maps": maps},
    sys.stdout, indent=1, ensure_ascii=False)
print()
