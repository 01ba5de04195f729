"""Plots the cost curve of bench/scale-sim.ts (a dev tool, not part of the build or the tests).

Usage (matplotlib from Debian: `apt-get install python3-matplotlib`, run with the system Python):

    pnpm tsx bench/scale-sim.ts --json out/scale.json
    /usr/bin/python3 bench/plot-scale.py out/scale.json docs/scale-sim.png
    /usr/bin/python3 bench/plot-scale.py "evening=out/a.json" "idle 16:08=out/b.json" docs/scale-sim.png

Several JSON files (each optionally prefixed with `LABEL=`) are drawn together: one curve per
label and schedule, so runs measured apart (or under another load) say so in the legend.

Left: wall time and the ideal (sum of instance times / min(workers, quota)) per worker count, for
each schedule the run has (dataset order; longest first by earlier times, whether asked for or
chosen by --schedule auto). Middle: wall / ideal, the same-run ratio. Right: the share of quota x
wall the vendor's slots were held, over the whole run and until the queue drained.
"""

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(sources: list[str]) -> tuple[dict, list[dict]]:
    """The first file's header and every file's rows, each row tagged with its series name."""
    header: dict = {}
    rows: list[dict] = []
    for source in sources:
        label, _, path = source.partition("=") if "=" in source else ("", "", source)
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        header = header or data
        for row in data["rows"]:
            schedule = row.get("schedule", "dataset")
            name = "longest first" if schedule == "longest-first" else "dataset order"
            rows.append({**row, "series": f"{name}, {label}" if label else name})
    return header, rows


def main(sources: list[str], target: str) -> None:
    data, rows = load(sources)
    series = list(dict.fromkeys(row["series"] for row in sorted(rows, key=lambda r: r["series"])))
    workers = sorted({row["workers"] for row in rows})
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(15, 4.6), dpi=110)
    markers = ["o", "^", "s", "v", "D"]

    for index, name in enumerate(series):
        mine = sorted((row for row in rows if row["series"] == name), key=lambda row: row["workers"])
        xs = [row["workers"] for row in mine]
        color = f"C{index}"
        solid = dict(marker=markers[index % len(markers)], linestyle="-", color=color)
        dashed = dict(marker=markers[index % len(markers)], linestyle="--", color=color, alpha=0.5)
        left.plot(xs, [row["wallS"] for row in mine], **solid, label=f"wall, {name}")
        left.plot(xs, [row["idealS"] for row in mine], **dashed, label=f"ideal, {name}")
        middle.plot(xs, [row["wallS"] / row["idealS"] for row in mine], **solid, label=name)
        right.plot(xs, [100 * row["busy"] for row in mine], **solid, label=f"whole run, {name}")
        right.plot(
            xs, [100 * row["busyUntilDrain"] for row in mine], **dashed, label=f"until the queue drained, {name}"
        )
    left.set_xscale("log")
    left.set_yscale("log")
    left.set_xticks(workers, [str(w) for w in workers])
    left.set_xlabel("--workers")
    left.set_ylabel("seconds")
    left.set_title(f"{data['instances']} instances, quota {data['quota']}")
    left.grid(True, alpha=0.3)
    left.legend(fontsize="x-small")

    middle.axhline(1.15, color="grey", linewidth=0.8, linestyle=":", label="goal 1.15×")
    middle.set_xscale("log")
    middle.set_xticks(workers, [str(w) for w in workers])
    middle.set_xlabel("--workers")
    middle.set_ylabel("wall / ideal")
    middle.set_ylim(0.9, 1.25)
    middle.grid(True, alpha=0.3)
    middle.legend(fontsize="small")

    right.axhline(95, color="grey", linewidth=0.8, linestyle=":", label="goal 95%")
    right.set_xscale("log")
    right.set_xticks(workers, [str(w) for w in workers])
    right.set_xlabel("--workers")
    right.set_ylabel(f"quota slots held, % of {data['quota']} × wall")
    right.set_ylim(0, 105)
    right.grid(True, alpha=0.3)
    right.legend(loc="lower right", fontsize="x-small")

    fig.suptitle("sandkit eval on a simulated vendor (bench/scale-sim.ts)")
    fig.tight_layout()
    fig.savefig(target)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: plot-scale.py [LABEL=]SCALE_JSON... OUTPUT_PNG")
    main(sys.argv[1:-1], sys.argv[-1])
