#!/usr/bin/env python3
"""Where a run's memory bandwidth goes, from its statistics file.

    scripts/memory_breakdown.py STATS.json

STATS.json is what `tessera workload ... --stats`, `tessera run ... --stats` or
`tessera calibrate ... --stats` wrote. For every DRAM controller that moved
data: the bandwidth over its active span, how busy the data buses of the
channels it used were, row hits, misses and conflicts, the mean number of
requests in its queues and their mean latency (Little's law: requests in the
controller = throughput x latency), how often and how long requests waited for
a queue place, and how evenly its accesses spread over channels and banks.
Then, summed per cache level, the misses that found every MSHR taken; and the
chiplet links' utilisation. docs/TIMING.md ("Where a stream's bandwidth goes")
reads the figures of the reference netlists' streams.
"""
import json
import sys


def groups(node, path=""):
    """Every statistics group (a dict holding counters) with its path."""
    for key, value in node.items():
        if isinstance(value, dict):
            sub = f"{path}.{key}" if path else key
            yield sub, value
            yield from groups(value, sub)


def is_dram(g):
    return "row_conflicts" in g and "bus_busy_ps" in g


def is_cache(g):
    return "mshr_full_stalls" in g


def dram_line(path, g):
    moved = g["bytes_read"] + g["bytes_written"]
    if moved == 0 or g["bandwidth"] <= 0:
        return None
    span_ps = moved / g["bandwidth"] * 1e12
    channels = g.get("channel_requests", {}).get("buckets", [])
    used = sum(1 for n in channels if n) or 1
    banks = [n for n in g.get("bank_requests", {}).get("buckets", []) if n]
    accesses = g["row_hits"] + g["row_misses"] + g["row_conflicts"]
    pct = lambda n: 100.0 * n / accesses if accesses else 0.0
    occupancy = g["queue_occupancy"]["mean"]
    stalls = g["request_stalls"]
    wait_ns = g.get("queue_wait_ps", 0) / stalls / 1000 if stalls else 0.0
    spread = f"{min(banks)}-{max(banks)} per bank" if banks else "-"
    return (f"{path}: {g['bandwidth'] / 1e9:.1f} GB/s over {span_ps / 1e6:.2f} us; "
            f"{used} channel(s) used, buses {100 * g['bus_busy_ps'] / (used * span_ps):.0f} % busy; "
            f"rows: {pct(g['row_hits']):.0f} % hits, {pct(g['row_misses']):.0f} % misses, "
            f"{pct(g['row_conflicts']):.0f} % conflicts; "
            f"{occupancy:.1f} requests queued on average ({occupancy / used:.1f} per channel), "
            f"latency {g['latency_mean_ns']:.0f} ns; "
            f"{stalls} waited for a queue place ({wait_ns:.0f} ns on average); accesses {spread}")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        stats = json.load(f)
    all_groups = list(groups(stats))
    print("DRAM controllers:")
    for path, g in all_groups:
        if is_dram(g):
            line = dram_line(path, g)
            if line:
                print("  " + line)
    levels = {}
    for path, g in all_groups:
        if is_cache(g):
            level = path.split(".")[-1].split("[")[0]
            misses, stalls = levels.get(level, (0, 0))
            levels[level] = (misses + g["misses"], stalls + g["mshr_full_stalls"])
    print("caches (summed per kind): misses, requests that waited for an MSHR:")
    for level, (misses, stalls) in levels.items():
        print(f"  {level}: {misses} misses, {stalls} waited for an MSHR")
    links = [(p, g) for p, g in all_groups if ".link[" in p and "utilisation" in g]
    if links:
        busiest = max(links, key=lambda pg: pg[1]["utilisation"])
        mean = sum(g["utilisation"] for _, g in links) / len(links)
        print(f"chiplet links: {len(links)}, mean utilisation {100 * mean:.0f} %, "
              f"busiest {busiest[0]} {100 * busiest[1]['utilisation']:.0f} %")
    return 0


if __name__ == "__main__":
    sys.exit(main())
