#!/usr/bin/env bash
# The CLI against a pandas + scipy script computing the same paired comparison, side by side on
# the same synthetic run folders (issue "Scale", section 2). Needs python3 with pandas and scipy.
#   scripts/bench/cli_vs_pandas.sh [TASKS] [SAMPLES] [RUNS]     (defaults 20000 4 3)
# Builds the CLI with its speed profile (`--profile cli`), writes the folders to a temporary
# directory, runs each side RUNS times and prints wall time and peak memory of every run, the
# machine's load before and after, and both sides' Δ, SE and p so they can be seen to agree.
set -euo pipefail
cd "$(dirname "$0")/../.."
TASKS=${1:-20000}
SAMPLES=${2:-4}
RUNS=${3:-3}
DATA=$(mktemp -d)
trap 'rm -rf "$DATA"' EXIT

cargo build --locked --profile cli -p eval-compare-cli >&2
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
CLI="$TARGET_DIR/cli/eval-compare"
python3 scripts/bench/make_run_folders.py "$DATA" "$TASKS" "$SAMPLES"
BASE="$DATA/er_bench_base"
CAND="$DATA/er_bench_cand"
echo "data: $TASKS tasks x $SAMPLES samples, $(du -sh "$DATA" | cut -f1) of run folders"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
# The text report prints the comparison as pandas does; the JSON report also writes every
# task's row (24 MB at 20k tasks), which pandas does not: both are timed.
for i in $(seq "$RUNS"); do
  /usr/bin/time -a -o "$DATA/times" -f "cli, no bootstrap:    %e s, %M KB (text report)" \
    "$CLI" report "$BASE" "$CAND" --resamples 0 > /dev/null
done
for i in $(seq "$RUNS"); do
  /usr/bin/time -a -o "$DATA/times" -f "cli, no bootstrap:    %e s, %M KB (JSON report)" \
    "$CLI" report "$BASE" "$CAND" --resamples 0 --format json > "$DATA/cli.json"
done
for i in $(seq "$RUNS"); do
  /usr/bin/time -a -o "$DATA/times" -f "cli, default (B=9999): %e s, %M KB" \
    "$CLI" report "$BASE" "$CAND" --format json > /dev/null
done
for i in $(seq "$RUNS"); do
  /usr/bin/time -a -o "$DATA/times" -f "pandas + scipy:        %e s, %M KB" \
    python3 scripts/bench/pandas_compare.py "$BASE" "$CAND" > "$DATA/pandas.json"
done
cat "$DATA/times"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$DATA/cli.json" "$DATA/pandas.json" <<'PY'
import json, sys
cli = json.load(open(sys.argv[1]))["candidates"][0]["primary"]
pandas = json.load(open(sys.argv[2]))
estimate = cli["estimate"]["Ok"]
print("cli:    n %d  delta %.9f  se %.9f  t p %.6g  wilcoxon (pratt) p %.6g" % (
    cli["n"], estimate["delta"], estimate["se"]["Ok"], cli["t_test"]["Ok"]["p_value"],
    cli["wilcoxon_pratt"]["Ok"]["p_value"]))
print("pandas: n %d  delta %.9f  se %.9f  t p %.6g  wilcoxon (pratt) p %.6g" % (
    pandas["paired_tasks"], pandas["delta"], pandas["se"], pandas["t_p"],
    pandas["wilcoxon_pratt_p"]))
PY
