#!/usr/bin/python3
"""Reference values for numpy.interp as the attention map uses it, computed with NumPy alone.

Writes tests/fixtures/interpolation.json: the k = q trace of Figure 12.3 (right), i.e.
np.interp(map_queries, keys, arange(60)) on the chapter's keys for 31 and 241 queries, and random
cases with queries outside the key range and repeated xp entries. Run with Debian's /usr/bin/python3.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "interpolation.json"


def chapter_keys() -> np.ndarray:
    return np.sort(np.random.default_rng(605012).uniform(-3.0, 3.0, size=60))


def main() -> None:
    keys = chapter_keys()
    traces = []
    for count in (31, 241):
        queries = np.linspace(-2.9, 2.9, count)
        traces.append({
            "queries": queries.tolist(),
            "keys": keys.tolist(),
            "positions": np.interp(queries, keys, np.arange(len(keys))).tolist(),
        })
    rng = np.random.default_rng(20240612)
    cases = []
    for n in (1, 2, 5, 17, 60):
        xp = np.sort(rng.normal(0.0, 2.0, size=n))
        if n >= 5:
            xp[3] = xp[2]
        fp = rng.normal(0.0, 1.0, size=n)
        x = np.concatenate([rng.uniform(xp[0] - 1.0, xp[-1] + 1.0, size=25), xp, [xp[0] - 5.0, xp[-1] + 5.0]])
        cases.append({"x": x.tolist(), "xp": xp.tolist(), "fp": fp.tolist(),
                      "expected": np.interp(x, xp, fp).tolist()})
    ticks = [0, 15, 30, 45, 59]
    fixture = {
        "traces": traces,
        "cases": cases,
        "tick_indices": ticks,
        "tick_labels": [f"{keys[i]:.1f}" for i in ticks],
    }
    OUT.write_text(json.dumps(fixture, indent=1) + "\n")


if __name__ == "__main__":
    main()
