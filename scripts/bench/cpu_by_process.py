#!/usr/bin/env python3
"""CPU time each kind of process spends while a command runs (Linux, from /proc): the demo
server, the browser's processes by type (renderer, network service, GPU, the browser itself),
ChromeDriver and the rest. It says where a CPU-bound benchmark's time goes beyond the page.

    python3 scripts/bench/cpu_by_process.py [--interval 0.25] -- COMMAND [ARGS...]

e.g. around `bench-report` at scale:

    python3 scripts/bench/cpu_by_process.py -- target/release/bench-report --runs 1 \\
        --warmup 0 --server-arg=--demo-scale --server-arg=100000x8 \\
        --url-query 'base=eval_base_v2&cand=eval_ckpt_s400'

Every process seen while the command runs is sampled (user + system time from
/proc/PID/stat); a process is counted from its first sample to its last, so a process that
lives shorter than one interval is missed, and one that was running before the command started
counts only what it used after. The kind of a browser process is its --type (and
--utility-sub-type) as first seen: Chromium rewrites a child's command line, and a process that
has exited has none.
"""
import argparse
import collections
import os
import re
import subprocess
import time

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def read_process(pid):
    """(name, command line, start time, CPU seconds) of a process, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            stat = handle.read()
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            command = handle.read().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    name = stat[stat.index("(") + 1 : stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2 :].split()
    # Fields after the name: state is 0; utime 11, stime 12, starttime 19.
    cpu = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return name, command, fields[19], cpu


def kind_of(name, command):
    """What a process is, by its name and command line."""
    if "chrom" in command and "chromedriver" not in command:
        kind = re.search(r"--type=(\S+)", command)
        sub = re.search(r"--utility-sub-type=(\S+)", command)
        label = "chromium " + (kind.group(1) if kind else "browser")
        return label + (" " + sub.group(1) if sub else "")
    return name


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--interval", type=float, default=0.25)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the command to run after --")
    # (pid, start time) -> [kind, first CPU seconds, last CPU seconds]
    seen = {}
    started = time.monotonic()
    child = subprocess.Popen(command)
    while True:
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            process = read_process(entry)
            if process is None:
                continue
            name, line, start, cpu = process
            key = (entry, start)
            if key in seen:
                seen[key][2] = cpu
            elif line:
                seen[key] = [kind_of(name, line), cpu, cpu]
        if child.poll() is not None:
            break
        time.sleep(args.interval)
    wall = time.monotonic() - started
    totals = collections.Counter()
    for kind, first, last in seen.values():
        totals[kind] += last - first
    print(f"\ncpu_by_process: {wall:.1f} s of wall time, {os.cpu_count()} cpus, "
          f"load average at end {os.getloadavg()[0]:.2f}")
    print(f"{'CPU s':>8}  process")
    for kind, seconds in totals.most_common():
        if seconds >= 0.05:
            print(f"{seconds:8.1f}  {kind}")
    print(f"{sum(totals.values()):8.1f}  in all")
    raise SystemExit(child.returncode)


if __name__ == "__main__":
    main()
