#!/usr/bin/env python3
"""Reference values for the anytime-valid confidence sequence of the paired delta
(crates/core/src/stats/confidence_sequence.rs): the predictable plug-in empirical-Bernstein
confidence sequence (Waudby-Smith & Ramdas 2024) as implemented by Howard's `confseq` package.

Writes crates/core/tests/data/confidence_sequence_reference.json, read by
crates/core/tests/confidence_sequence_reference.rs.

The values come from confseq's own code: `predmix_empbern_twosided_cs` (confseq/predmix.py) and
its bets `lambda_predmix_eb` (confseq/betting_strategies.py), version 0.0.11 from PyPI. The
package's wheel does not build here (its C++ boundaries need CMake + Ninja), and its
`types.py` uses `np.float_`, which NumPy 2 removed; so this script downloads the sdist with
`pip download`, and loads those two pure-Python files unchanged with two tiny stand-ins for
`confseq.types` (an array alias) and `confseq.misc` (imported, unused by these functions).
Deltas d in [-1, 1] are mapped to x = (d + 1)/2 in [0, 1] and the bounds back by 2x - 1.

It also records, with scipy's t quantile, the fixed-n t interval's width on the same data (the
ratio quoted in docs/statistics.md) and a seeded simulation of how often watching the
confidence sequence (or the t interval) at every n ever misses the true mean.

Usage: python3 scripts/reference/confidence_sequence_reference.py   (needs numpy, scipy, pip)
       CONFSEQ_SDIST=path/to/confseq-0.0.11.tar.gz to use a downloaded sdist instead
"""

import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import types

import numpy as np
import scipy
import scipy.stats as st

ROOT = pathlib.Path(__file__).resolve().parents[2]
OUT = ROOT / "crates/core/tests/data/confidence_sequence_reference.json"
CONFSEQ_VERSION = "0.0.11"


def load_confseq():
    """confseq's predmix module, loaded from the PyPI sdist's unchanged source files."""
    tmp = pathlib.Path(tempfile.mkdtemp())
    local = os.environ.get("CONFSEQ_SDIST")  # an already downloaded confseq-0.0.11.tar.gz
    if local:
        shutil.copy(local, tmp)
    else:
        subprocess.run(
            [sys.executable, "-m", "pip", "download", f"confseq=={CONFSEQ_VERSION}",
             "--no-deps", "-q", "-d", str(tmp)],
            check=True,
        )
    (archive,) = tmp.glob("confseq-*.tar.gz")
    with tarfile.open(archive) as tar:
        tar.extractall(tmp, filter="data")
    src = tmp / f"confseq-{CONFSEQ_VERSION}" / "src" / "confseq"
    package = types.ModuleType("confseq")
    package.__path__ = [str(src)]
    sys.modules["confseq"] = package
    sys.modules["confseq.types"] = types.SimpleNamespace(RealArray=np.ndarray)
    sys.modules["confseq.misc"] = types.SimpleNamespace(
        get_running_intersection=None, get_ci_seq=None)
    modules = {}
    for name in ("betting_strategies", "predmix"):
        spec = importlib.util.spec_from_file_location(f"confseq.{name}", src / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[f"confseq.{name}"] = module
        spec.loader.exec_module(module)
        modules[name] = module
    return modules["predmix"]


PREDMIX = load_confseq()


def confseq_path(deltas, level):
    x = (np.asarray(deltas, dtype=float) + 1.0) / 2.0
    lower, upper = PREDMIX.predmix_empbern_twosided_cs(
        x, alpha=1.0 - level, truncation=0.5, running_intersection=False)
    return 2.0 * lower - 1.0, 2.0 * upper - 1.0


def t_width(deltas, level):
    n = len(deltas)
    sd = np.std(deltas, ddof=1)
    return 2.0 * st.t.ppf(0.5 + level / 2.0, n - 1) * sd / np.sqrt(n)


def ternary(rng, n, up, down):
    u = rng.random(n)
    return np.where(u < up, 1.0, np.where(u < up + down, -1.0, 0.0))


def cases():
    rng = np.random.default_rng(20210601)
    out = []
    specs = [
        ("binary, candidate better", 300, 0.95, lambda: ternary(rng, 300, 0.20, 0.08)),
        ("binary, no difference", 300, 0.95, lambda: ternary(rng, 300, 0.10, 0.10)),
        ("binary, rare discordance", 200, 0.95, lambda: ternary(rng, 200, 0.03, 0.01)),
        ("binary, candidate worse, 90%", 250, 0.90, lambda: ternary(rng, 250, 0.05, 0.20)),
        ("continuous rewards", 300, 0.95,
         lambda: np.round(rng.beta(2, 3, 300) - rng.beta(2, 4, 300), 9)),
        ("continuous, 99%", 150, 0.99,
         lambda: np.round(np.clip(rng.normal(0.05, 0.3, 150), -1, 1), 9)),
        ("all ties", 40, 0.95, lambda: np.zeros(40)),
        ("all candidate wins", 30, 0.95, lambda: np.ones(30)),
        ("extremes alternate", 60, 0.95, lambda: np.tile([1.0, -1.0, -1.0], 20)),
    ]
    for name, n, level, draw in specs:
        deltas = draw()
        assert len(deltas) == n
        lower, upper = confseq_path(deltas, level)
        out.append({
            "name": name,
            "level": level,
            "deltas": deltas.tolist(),
            "lower": lower.tolist(),
            "upper": upper.tolist(),
        })
    return out


def width_ratios():
    """Confidence-sequence width over the fixed-n t interval's, on one long sequence."""
    rng = np.random.default_rng(7)
    deltas = ternary(rng, 2000, 0.15, 0.10)
    lower, upper = confseq_path(deltas, 0.95)
    rows = []
    for n in (50, 100, 200, 400, 1000, 2000):
        rows.append({
            "n": n,
            "cs_width": float(upper[n - 1] - lower[n - 1]),
            "t_width": float(t_width(deltas[:n], 0.95)),
        })
    return {"p_candidate_only": 0.15, "p_baseline_only": 0.10, "level": 0.95, "rows": rows}


def simulation():
    """How often one ever misses the truth when looking after every task up to 1,000."""
    rng = np.random.default_rng(99)
    sequences, n, up, down = 1000, 1000, 0.10, 0.10
    cs_miss = t_miss = 0
    for _ in range(sequences):
        deltas = ternary(rng, n, up, down)
        lower, upper = confseq_path(deltas, 0.95)
        truth = up - down
        cs_miss += bool(np.any((lower > truth) | (upper < truth)))
        t = np.arange(1, n + 1)
        mean = np.cumsum(deltas) / t
        with np.errstate(invalid="ignore", divide="ignore"):
            var = (np.cumsum(deltas ** 2) - t * mean ** 2) / (t - 1)
            half = st.t.ppf(0.975, t - 1) * np.sqrt(np.maximum(var, 0) / t)
        look = (t >= 10) & (var > 0)
        t_miss += bool(np.any(look & (np.abs(mean - truth) > half)))
    return {
        "sequences": sequences, "tasks": n, "p_candidate_only": up, "p_baseline_only": down,
        "level": 0.95, "cs_ever_missed": cs_miss / sequences, "t_ever_missed": t_miss / sequences,
    }


def main():
    data = {
        "generated_by": "scripts/reference/confidence_sequence_reference.py",
        "versions": {"confseq": CONFSEQ_VERSION, "numpy": np.__version__,
                     "scipy": scipy.__version__},
        "cases": cases(),
        "width_ratios": width_ratios(),
        "simulation": simulation(),
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(json.dumps({"width_ratios": data["width_ratios"], "simulation": data["simulation"]},
                     indent=1))


if __name__ == "__main__":
    main()
