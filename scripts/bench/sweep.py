#!/usr/bin/python3
"""Times the chapter's own NumPy bias/variance sweep (draws included) and a direct NumPy exact
risk over 200 bandwidths; one JSON line per case with the median."""
from __future__ import annotations

import json
import sys
import time

import numpy as np

from attention import gaussian_attention, row_softmax  # the chapter's code, shared with attention.py


def truth(x: np.ndarray) -> np.ndarray:
    return np.sin(1.5 * x) + 0.3 * np.cos(4.0 * x)


BANDWIDTHS = np.array([0.05, 0.08, 0.12, 0.18, 0.28, 0.42, 0.65, 1.00])


def chapter_sweep():
    """Section 12.4's code as printed (without the print)."""
    data_rng = np.random.default_rng(605012)
    keys = np.sort(data_rng.uniform(-3.0, 3.0, size=60))
    observed_rng = np.random.default_rng(605013)
    observed_values = truth(keys) + observed_rng.normal(0.0, 0.25, size=keys.size)
    queries = np.linspace(-2.9, 2.9, 241)
    mc_rng = np.random.default_rng(605014)
    responses = truth(keys)[None, :] + mc_rng.normal(0.0, 0.25, size=(1_000, keys.size))
    rows = []
    for bandwidth in BANDWIDTHS:
        _, weights = gaussian_attention(queries[:, None], keys[:, None], observed_values[:, None], bandwidth)
        predictions = responses @ weights.T
        mean_prediction = predictions.mean(axis=0)
        squared_bias = np.mean((mean_prediction - truth(queries)) ** 2)
        variance = np.mean(np.var(predictions, axis=0))
        mse = np.mean((predictions - truth(queries)[None, :]) ** 2)
        rows.append((bandwidth, 2 * bandwidth**2, squared_bias, variance, mse))
    return rows


def exact_risk_200():
    keys = np.sort(np.random.default_rng(605012).uniform(-3.0, 3.0, size=60))
    queries = np.linspace(-2.9, 2.9, 241)
    rows = []
    for bandwidth in np.geomspace(0.02, 2.0, 200):
        weights = row_softmax(-((queries[:, None] - keys[None, :]) ** 2) / (2.0 * bandwidth**2))
        bias2 = np.mean((weights @ truth(keys) - truth(queries)) ** 2)
        variance = 0.25**2 * np.mean(np.sum(weights**2, axis=1))
        rows.append((bandwidth, bias2, variance))
    return rows


def median_ms(run) -> float:
    times: list[float] = []
    while len(times) < 5 or (sum(times) < 1000.0 and len(times) < 200):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def main() -> None:
    cases = {"sweep": chapter_sweep, "exact200": exact_risk_200}
    for case in sys.argv[1:] or list(cases):
        print(json.dumps({"case": case, "ms": median_ms(cases[case])}), flush=True)


if __name__ == "__main__":
    main()
