#!/usr/bin/python3
"""Times the chapter's own NumPy gaussian_attention; one JSON line per case with the median."""
from __future__ import annotations

import json
import sys
import time

import numpy as np


def row_softmax(scores: np.ndarray) -> np.ndarray:
    """Normalize each row after a stability-preserving shift."""
    shifted = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=1, keepdims=True)


def gaussian_attention(queries, keys, values, bandwidth):
    """Fixed Gaussian attention for Q:(m,d), K:(n,d), V:(n,p)."""
    if not np.isfinite(bandwidth) or bandwidth <= 0:
        raise ValueError("bandwidth must be positive and finite")
    if queries.ndim != 2 or keys.ndim != 2 or values.ndim != 2:
        raise ValueError("queries, keys, and values must be matrices")
    if queries.shape[1] != keys.shape[1] or keys.shape[0] != values.shape[0]:
        raise ValueError("Q/K feature dimensions and K/V row counts must agree")

    distances2 = ((queries[:, None, :] - keys[None, :, :]) ** 2).sum(axis=2)
    log_scores = -distances2 / (2.0 * bandwidth**2)  # (m, n)
    weights = row_softmax(log_scores)                # (m, n)
    return weights @ values, weights                 # (m, p), (m, n)


def median_ms(m: int, n: int, d: int) -> float:
    rng = np.random.default_rng(605012)
    queries = rng.uniform(-3.0, 3.0, size=(m, d))
    keys = rng.uniform(-3.0, 3.0, size=(n, d))
    values = rng.uniform(-3.0, 3.0, size=(n, 1))
    times: list[float] = []
    while len(times) < 5 or (sum(times) < 250.0 and len(times) < 2000):
        start = time.perf_counter()
        gaussian_attention(queries, keys, values, 0.5)
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def main() -> None:
    cases = sys.argv[1:] or ["241x60x1", "2048x2048x1", "2048x2048x8"]
    for case in cases:
        m, n, d = (int(part) for part in case.split("x"))
        print(json.dumps({"case": case, "ms": median_ms(m, n, d)}), flush=True)


if __name__ == "__main__":
    main()
