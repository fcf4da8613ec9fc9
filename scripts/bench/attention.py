#!/usr/bin/python3
"""Times the chapter's own NumPy gaussian_attention; one JSON line per case with the median.

A case is "m x n x d:bandwidth:order", e.g. 2048x2048x8:0.3:sorted (keys sorted by their first
coordinate, or unsorted); inputs drawn uniformly on [-3, 3]."""
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


def parse_case(case: str) -> tuple[int, int, int, float, bool]:
    """'2048x2048x8:0.3:sorted' -> (m, n, d, bandwidth, keys sorted by their first coordinate)."""
    size, bandwidth, order = case.split(":")
    m, n, d = (int(part) for part in size.split("x"))
    if order not in ("sorted", "unsorted"):
        raise ValueError(f"order must be sorted or unsorted, got {order!r}")
    return m, n, d, float(bandwidth), order == "sorted"


def median_ms(case: str) -> float:
    m, n, d, bandwidth, keys_sorted = parse_case(case)
    rng = np.random.default_rng(605012)
    queries = rng.uniform(-3.0, 3.0, size=(m, d))
    keys = rng.uniform(-3.0, 3.0, size=(n, d))
    if keys_sorted:
        keys = keys[np.argsort(keys[:, 0], kind="stable")]
    values = rng.uniform(-3.0, 3.0, size=(n, 1))
    times: list[float] = []
    while len(times) < 5 or (sum(times) < 250.0 and len(times) < 2000):
        start = time.perf_counter()
        gaussian_attention(queries, keys, values, bandwidth)
        times.append((time.perf_counter() - start) * 1e3)
    return float(np.median(times))


def main() -> None:
    cases = sys.argv[1:] or ["2048x2048x1:0.5:unsorted"]
    for case in cases:
        print(json.dumps({"case": case, "ms": median_ms(case)}), flush=True)


if __name__ == "__main__":
    main()
