#!/usr/bin/env python3
"""Turns a full benchmark run into the tables of Benchmarks/README.md.

    cd Benchmarks
    swift package --allow-writing-to-directory /tmp/stapler-bench benchmark \
        --format histogramPercentiles --path /tmp/stapler-bench --no-progress
    ../scripts/benchmark-table.py /tmp/stapler-bench
    ../scripts/benchmark-table.py /tmp/stapler-bench /tmp/old-engine-bench   # and P1 against another run
    ../scripts/benchmark-table.py /tmp/run1,/tmp/run2,/tmp/run3              # the median of several runs
    FASTEST=1 ../scripts/benchmark-table.py /tmp/run1,/tmp/run2,/tmp/run3    # their fastest iterations

Reads the percentile files the run wrote (one per benchmark and metric) and prints Markdown: per
operation figures at the median (p50) of the iterations, with the ratios to the peer and the floor. A second directory (a
run of another checkout, such as the previous paging engine) adds a table comparing P1 in both.
Wall time must be in microseconds (the configuration of every scenario says so). The harness exports
counts scaled to thousands or millions, rounded: malloc counts and bytes keep two or three digits.
"""

import glob
import os
import sys

# Operations per iteration of each reactive scenario: values sent, or deliveries for R2.
REACTIVE = [
    ("R1", "10,000,000 values, one hot signal, one observer", 10_000_000),
    ("R2", "10,000 values to each of 1,000 observers (per delivery)", 10_000_000),
    ("R3", "map, filter, map; 5,000,000 values", 5_000_000),
    ("R4", "5,000,000 sets of a property, one observer", 5_000_000),
    ("R5", "observe then dispose, 1,000,000 times", 1_000_000),
    ("R6", "1,000,000 synchronous action executions", 1_000_000),
]
P1_SIZES = [100_000, 200_000, 400_000, 1_000_000]
P4_SIZES = [100_000, 1_000_000]
P5_EDITS = 10_000
P6_ROWS = 10_000
ROW_BYTES = 16
# FASTEST=1 in the environment: every figure is the fastest iteration of all the runs given, not the median.
FASTEST = os.environ.get("FASTEST") == "1"


def load(directory):
    """Maps (benchmark, metric) to {percentile: value}."""
    results = {}
    for path in glob.glob(os.path.join(directory, "*.histogram.percentiles.tsv")):
        name = os.path.basename(path)[: -len(".histogram.percentiles.tsv")]
        # <baseline>.<target>.<benchmark>.<metric>; benchmark names contain no dots.
        parts = name.split(".")
        benchmark, metric = parts[2], ".".join(parts[3:])
        values = {}
        with open(path) as lines:
            header = next(lines)
            # Counts are exported scaled, e.g. "Malloc (total) (M) *": undo the scale (the figures keep
            # only the exported precision). Wall time is in microseconds, unscaled.
            factor = 1
            for unit, multiplier in [("(K)", 1e3), ("(M)", 1e6), ("(G)", 1e9)]:
                if unit in header and "wall clock" not in header:
                    factor = multiplier
            for line in lines:
                percentile, value = line.split("\t")
                values[int(percentile)] = float(value) * factor
        results[(benchmark, metric)] = values
    return results


def load_runs(directories):
    """Like load, for one directory or several separated by commas: each figure is then the median of
    the runs' medians (p50), which is what a noisy machine needs."""
    runs = [load(directory) for directory in directories.split(",")]
    if FASTEST:
        # The fastest iteration of all runs (p0), the figure least disturbed by other work on the machine.
        return {key: {50: min(run[key][0] for run in runs if key in run)} for key in set().union(*runs)}
    if len(runs) == 1:
        return runs[0]
    merged = {}
    for key in set().union(*runs):
        medians = sorted(run[key][50] for run in runs if key in run)
        middle = len(medians) // 2
        value = medians[middle] if len(medians) % 2 else (medians[middle - 1] + medians[middle]) / 2
        merged[key] = {50: value}
    return merged


def median(results, benchmark, metric):
    values = results.get((benchmark, metric))
    return None if values is None else values[50]


def peak_heap(results, benchmark):
    """The median of a peak-heap scenario's custom metric, in percent of the items' size."""
    for (name, metric), values in results.items():
        if name == benchmark and metric.startswith("Peak_heap"):
            return values[50]
    return None


def fmt(value, digits=1):
    return "n/a" if value is None else f"{value:,.{digits}f}"



def per_value_table(results, scenario, operations, rows):
    """Prints the ns per value of `rows` (scenario name, title), each beside `scenario`-ours ÷ it."""
    print()
    print(f"| {scenario} per value | ns | ours ÷ it |")
    print("|---|--:|--:|")
    ours = median(results, f"{scenario}-ours", "wallClock")
    for name, title in rows:
        microseconds = median(results, name, "wallClock")
        print(f"| {title} | {fmt(microseconds * 1_000 / operations if microseconds else None, 2)} | "
              f"{fmt(ours / microseconds if ours and microseconds else None, 1)}x |")

def main():
    results = load_runs(sys.argv[1])
    print("| Scenario | ours ns/op | OpenCombine ns/op | floor ns/op | OpenCombine ÷ ours | ours ÷ floor "
          "| mallocs/op ours | mallocs/op OpenCombine | mallocs/op floor |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
    for scenario, title, operations in REACTIVE:
        times = {}
        mallocs = {}
        for variant in ["ours", "OpenCombine", "floor"]:
            microseconds = median(results, f"{scenario}-{variant}", "wallClock")
            times[variant] = None if microseconds is None else microseconds * 1_000 / operations
            count = median(results, f"{scenario}-{variant}", "mallocCountTotal")
            mallocs[variant] = None if count is None else count / operations
        peer_ratio = times["OpenCombine"] / times["ours"] if times["ours"] and times["OpenCombine"] else None
        floor_ratio = times["ours"] / times["floor"] if times["ours"] and times["floor"] else None
        print(f"| {scenario}: {title} | {fmt(times['ours'])} | {fmt(times['OpenCombine'])} | "
              f"{fmt(times['floor'], 2)} | {fmt(peer_ratio, 2)}x | {fmt(floor_ratio, 1)}x | "
              f"{fmt(mallocs['ours'], 2)} | {fmt(mallocs['OpenCombine'], 2)} | {fmt(mallocs['floor'], 2)} |")

    per_value_table(results, "R1", 10_000_000, [
        ("R1-floor", "a bare closure call (the floor)"),
        ("R1-atomicFloor", "the call between two compare-and-swaps (least for a lock-free send)"),
        ("R1-lockFloor", "the call inside one `pthread_mutex_t` round trip (least for a lock-based send)"),
        ("R1-ours", "ours: `Signal.pipe()`, one `observeValues`"),
    ])
    per_value_table(results, "R3", 5_000_000, [
        ("R3-floor", "the chain's closures called directly (the floor)"),
        ("R3-lockFloor", "the chain inside one `pthread_mutex_t` round trip (least for a lock-based chain)"),
        ("R3-ours", "ours: `map`, `filter`, `map`, `observeValues`"),
    ])

    print()
    print("| P1: N items | time (ms) | ns per item | time ÷ time at 100k | × N | mallocs per page "
          "| bytes held ÷ items' size | peak heap ÷ items' size | peak resident Δ (MB) |")
    print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
    base = median(results, f"P1-ours-N={P1_SIZES[0]}", "wallClock")
    for size in P1_SIZES:
        name = f"P1-ours-N={size}"
        microseconds = median(results, name, "wallClock")
        held = median(results, name, "memoryLeakedBytes")
        resident = median(results, name, "peakMemoryResidentDelta")
        peak = None
        for (benchmark, metric), values in results.items():
            if benchmark == f"P1-peak-heap-N={size}":
                peak = values[50]
        count = median(results, name, "mallocCountTotal")
        print(f"| {size:,} | {fmt(microseconds / 1_000 if microseconds else None)} | "
              f"{fmt(microseconds * 1_000 / size if microseconds else None)} | "
              f"{fmt(microseconds / base if microseconds and base else None, 2)} | {size // P1_SIZES[0]} | "
              f"{fmt(count / (size / 100) if count else None)} | "
              f"{fmt(held / (size * ROW_BYTES) if held else None, 2)} | "
              f"{fmt(peak / 100 if peak else None, 2)} | {fmt(resident / 1_000_000 if resident else None)} |")

    print()
    print("| Scenario | ns per call | mallocs per call |")
    print("|---|--:|--:|")
    for name, title, calls in [
        ("P2-ours", "P2: `loadNextPageIfNeeded()` while a page is in flight", 1_000_000),
        ("P2-lock-reference", "P2 reference: a no-op `retry()` through the engine's lock", 1_000_000),
        ("P3-ours", "P3: `preload(index:)` for every row of a 1,000,000-row list", 1_000_000),
    ]:
        microseconds = median(results, name, "wallClock")
        count = median(results, name, "mallocCountTotal")
        print(f"| {title} | {fmt(microseconds * 1_000 / calls if microseconds else None, 2)} | "
              f"{fmt(count / calls if count is not None else None, 4)} |")

    print()
    print("| P4: N items, pages of 100 | time (ms) | µs per page | time ÷ time at 100k | mallocs per page "
          "| bytes held ÷ items' size | peak heap ÷ items' size |")
    print("|---|--:|--:|--:|--:|--:|--:|")
    for name in ["P4-prepend", "P4-append", "P1-ours", "P1-floor"]:
        base = median(results, f"{name}-N={P4_SIZES[0]}", "wallClock")
        for size in P4_SIZES:
            benchmark = f"{name}-N={size}"
            microseconds = median(results, benchmark, "wallClock")
            count = median(results, benchmark, "mallocCountTotal")
            held = median(results, benchmark, "memoryLeakedBytes")
            peak = peak_heap(results, benchmark.replace("-ours", "-peak-heap").replace("-prepend", "-peak-heap"))
            pages = size / 100
            print(f"| {benchmark} | {fmt(microseconds / 1_000 if microseconds else None)} | "
                  f"{fmt(microseconds / pages if microseconds else None, 2)} | "
                  f"{fmt(microseconds / base if microseconds and base else None, 2)} | "
                  f"{fmt(count / pages if count else None)} | "
                  f"{fmt(held / (size * ROW_BYTES) if held else None, 2)} | "
                  f"{fmt(peak / 100 if peak and name in ('P4-prepend', 'P1-ours') else None, 2)} |")

    print()
    print(f"| P5: {P5_EDITS:,} edits of a {100 * P5_EDITS:,}-row list | time (ms) | µs per edit | mallocs per edit "
          "| bytes held per edit |")
    print("|---|--:|--:|--:|--:|")
    for name, edits in [("P5-replace", P5_EDITS), ("P5-first-edit", 1)]:
        microseconds = median(results, name, "wallClock")
        count = median(results, name, "mallocCountTotal")
        held = median(results, name, "memoryLeakedBytes")
        print(f"| {name} | {fmt(microseconds / 1_000 if microseconds else None, 2)} | "
              f"{fmt(microseconds / edits if microseconds else None, 2)} | "
              f"{fmt(count / edits if count else None, 1)} | {fmt(held / edits if held else None, 0)} |")
    peak = peak_heap(results, "P5-peak-heap")
    if peak:
        # 1% of the items' size (100 rows x 16 bytes per edit) is 16 bytes per edit.
        print(f"| P5-peak-heap: heap growth during the edits | | | | {fmt(peak * ROW_BYTES, 0)} (peak) |")

    print()
    print(f"| P6: refresh of {P6_ROWS:,} rows | time (ms) | µs per row | mallocs | mallocs per row |")
    print("|---|--:|--:|--:|--:|")
    for name in ["P6-keyed-refresh", "P6-reference", "P6-floor"]:
        microseconds = median(results, name, "wallClock")
        count = median(results, name, "mallocCountTotal")
        print(f"| {name} | {fmt(microseconds / 1_000 if microseconds else None, 2)} | "
              f"{fmt(microseconds / P6_ROWS if microseconds else None, 2)} | {fmt(count, 0)} | "
              f"{fmt(count / P6_ROWS if count else None, 2)} |")

    if len(sys.argv) > 2:
        old = load_runs(sys.argv[2])
        print()
        print("| P1: N items | old ms | new ms | new ÷ old | old µs per page | new µs per page "
              "| old mallocs per page | new mallocs per page | old peak heap | new peak heap |")
        print("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        for size in P1_SIZES:
            name = f"P1-ours-N={size}"
            before = median(old, name, "wallClock")
            after = median(results, name, "wallClock")
            if before is None or after is None:
                continue
            pages = size / 100
            old_count = median(old, name, "mallocCountTotal")
            new_count = median(results, name, "mallocCountTotal")
            old_peak = peak_heap(old, f"P1-peak-heap-N={size}")
            new_peak = peak_heap(results, f"P1-peak-heap-N={size}")
            print(f"| {size:,} | {fmt(before / 1_000)} | {fmt(after / 1_000)} | {fmt(after / before, 2)} | "
                  f"{fmt(before / pages, 2)} | {fmt(after / pages, 2)} | "
                  f"{fmt(old_count / pages if old_count else None)} | {fmt(new_count / pages if new_count else None)} | "
                  f"{fmt(old_peak / 100 if old_peak else None, 2)} | {fmt(new_peak / 100 if new_peak else None, 2)} |")


if __name__ == "__main__":
    main()
