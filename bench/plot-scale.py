"""Plots the cost curve of bench/scale-sim.ts (a dev tool, not part of the build or the tests).

Usage (matplotlib from Debian: `apt-get install python3-matplotlib`, run with the system Python):

    pnpm tsx bench/scale-sim.ts --json out/scale.json
    /usr/bin/python3 bench/plot-scale.py out/scale.json docs/scale-sim.png

Left: wall time and the ideal (sum of instance times / min(workers, quota)) per worker count, for
each schedule the run has (dataset order; longest first by the dataset-order row's times).
Middle: wall / ideal, the same-run ratio. Right: the share of quota x wall the vendor's slots were held, over the whole run and until the
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
    schedules = sorted({row.get("schedule", "dataset") for row in rows}, key=lambda s: s != "dataset")
    workers = sorted({row["workers"] for row in rows})
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(15, 4.2), dpi=110)
    styles = {"dataset": ("o-", "s--"), "longest-first": ("^-", "v:")}

    for schedule in schedules:
        mine = [row for row in rows if row.get("schedule", "dataset") == schedule]
        xs = [row["workers"] for row in mine]
        solid, dashed = styles.get(schedule, ("o-", "s--"))
        left.plot(xs, [row["wallS"] for row in mine], solid, label=f"wall, {schedule} order")
        middle.plot(xs, [row["wallS"] / row["idealS"] for row in mine], solid, label=f"{schedule} order")
        left.plot(
            xs, [row["idealS"] for row in mine], dashed, alpha=0.6, label=f"ideal (Σ instance / concurrency), {schedule}"
        )
        right.plot(xs, [100 * row["busy"] for row in mine], solid, label=f"whole run, {schedule} order")
        right.plot(
            xs, [100 * row["busyUntilDrain"] for row in mine], dashed, alpha=0.6, label=f"until the queue drained, {schedule}"
        )
    left.set_xscale("log")
    left.set_xticks(workers, [str(w) for w in workers])
    left.set_xlabel("--workers")
    left.set_ylabel("seconds")
    left.set_title(f"{data['instances']} instances, quota {data['quota']}")
    left.grid(True, alpha=0.3)
    left.legend(fontsize="small")

    middle.axhline(1.15, color="grey", linewidth=0.8, linestyle=":", label="goal 1.15×")
    middle.set_xscale("log")
    middle.set_xticks(workers, [str(w) for w in workers])
    middle.set_xlabel("--workers")
    middle.set_ylabel("wall / ideal")
    middle.set_ylim(1.0, 1.25)
    middle.grid(True, alpha=0.3)
    middle.legend(fontsize="small")

    right.axhline(95, color="grey", linewidth=0.8, linestyle=":", label="goal 95%")
    right.set_xscale("log")
    right.set_xticks(workers, [str(w) for w in workers])
    right.set_xlabel("--workers")
    right.set_ylabel(f"quota slots held, % of {data['quota']} × wall")
    right.set_ylim(0, 105)
    right.grid(True, alpha=0.3)
    right.legend(loc="lower right", fontsize="small")

    fig.suptitle("sandkit eval on a simulated vendor (bench/scale-sim.ts)")
    fig.tight_layout()
    fig.savefig(target)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: plot-scale.py SCALE_JSON OUTPUT_PNG")
    main(sys.argv[1], sys.argv[2])
