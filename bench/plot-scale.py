"""Plots the cost curve of bench/scale-sim.ts (a dev tool, not part of the build or the tests).

Usage (matplotlib from Debian: `apt-get install python3-matplotlib`, run with the system Python):

    pnpm tsx bench/scale-sim.ts --json out/scale.json
    /usr/bin/python3 bench/plot-scale.py out/scale.json docs/scale-sim.png

Left: wall time and the ideal (sum of instance times / min(workers, quota)) per worker count.
Right: the share of quota x wall the vendor's slots were held, over the whole run and until the
queue drained.
"""

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(source: str, target: str) -> None:
    with open(source, encoding="utf-8") as handle:
        data = json.load(handle)
    rows = data["rows"]
    workers = [row["workers"] for row in rows]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), dpi=110)

    left.plot(workers, [row["wallS"] for row in rows], "o-", label="wall")
    left.plot(workers, [row["idealS"] for row in rows], "s--", label="ideal (Σ instance / concurrency)")
    left.set_xscale("log")
    left.set_xticks(workers, [str(w) for w in workers])
    left.set_xlabel("--workers")
    left.set_ylabel("seconds")
    left.set_title(f"{data['instances']} instances, quota {data['quota']}")
    left.grid(True, alpha=0.3)
    left.legend()

    right.plot(workers, [100 * row["busy"] for row in rows], "o-", label="whole run")
    right.plot(workers, [100 * row["busyUntilDrain"] for row in rows], "s--", label="until the queue drained")
    right.axhline(95, color="grey", linewidth=0.8, linestyle=":", label="goal 95%")
    right.set_xscale("log")
    right.set_xticks(workers, [str(w) for w in workers])
    right.set_xlabel("--workers")
    right.set_ylabel(f"quota slots held, % of {data['quota']} × wall")
    right.set_ylim(0, 105)
    right.grid(True, alpha=0.3)
    right.legend(loc="lower right")

    fig.suptitle("sandkit eval on a simulated vendor (bench/scale-sim.ts)")
    fig.tight_layout()
    fig.savefig(target)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot-scale.py SCALE_JSON OUTPUT_PNG")
    main(sys.argv[1], sys.argv[2])
