#!/usr/bin/env python3
"""What fills each long main-thread block of a CPU profile written by
`bench-report --cpu-profile FILE` (DevTools' .cpuprofile format).

A block is a run of samples that are not idle with no idle gap longer than --gap-ms. For each
block of at least --min-ms it prints when it started (ms after the first sample) and how long it
took, then the functions that took the most of it, by self time and by inclusive time (a
function counted once per sample whatever its depth). Wasm functions have names only in a
build that keeps them (`EVAL_COMPARE_KEEP_NAMES=1 scripts/build-viewer.sh DIR`).

    python3 scripts/bench/profile_blocks.py profile.json [--min-ms 150] [--top 12]
"""
import argparse
import collections
import json

IDLE = {"(idle)", "(program)", "(garbage collector)"}
# "(program)" is the browser's own work outside JavaScript: style, layout and paint, but also
# network handling; --program-busy counts it as busy.


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("profile")
    parser.add_argument("--min-ms", type=float, default=150.0)
    parser.add_argument("--gap-ms", type=float, default=2.0)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--program-busy", action="store_true")
    args = parser.parse_args()
    with open(args.profile) as handle:
        profile = json.load(handle)
    nodes = {node["id"]: node for node in profile["nodes"]}
    parent = {}
    for node in profile["nodes"]:
        for child in node.get("children", []):
            parent[child] = node["id"]

    def name(node_id):
        frame = nodes[node_id]["callFrame"]
        return frame["functionName"] or "(anonymous " + frame.get("url", "").rsplit("/", 1)[-1] + ")"

    # Sample times in ms from the first sample.
    times, at = [], 0.0
    for delta in profile["timeDeltas"]:
        at += delta / 1000.0
        times.append(at)
    samples = profile["samples"]
    start = times[0] if times else 0.0

    idle = IDLE - {"(program)", "(garbage collector)"} if args.program_busy else IDLE
    blocks, current, last_busy = [], [], None
    for index, node_id in enumerate(samples):
        busy = name(node_id) not in idle
        if busy:
            if current and times[index] - last_busy > args.gap_ms:
                blocks.append(current)
                current = []
            current.append(index)
            last_busy = times[index]
    if current:
        blocks.append(current)

    for block in blocks:
        duration = times[block[-1]] - times[block[0]]
        if duration < args.min_ms:
            continue
        own, inclusive = collections.Counter(), collections.Counter()
        for index in block:
            node_id = samples[index]
            own[name(node_id)] += 1
            seen = set()
            while node_id is not None:
                function = name(node_id)
                if function not in seen:
                    inclusive[function] += 1
                    seen.add(function)
                node_id = parent.get(node_id)
        total = len(block)
        print(f"block at {times[block[0]] - start:9.0f} ms, {duration:7.0f} ms ({total} samples)")
        print("  self:")
        for function, count in own.most_common(args.top):
            print(f"    {100 * count / total:5.1f}%  {function[:110]}")
        print("  inclusive:")
        for function, count in inclusive.most_common(args.top + 8):
            print(f"    {100 * count / total:5.1f}%  {function[:110]}")
        print()


if __name__ == "__main__":
    main()
