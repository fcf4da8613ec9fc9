#!/usr/bin/python3
"""Reference values for sections 12.1-12.5, computed with NumPy alone.

Writes tests/fixtures/core.json: the chapter's own worked examples (run with the chapter's code)
and random attention / OLS cases (d = 1..5, bandwidths 0.03..6, four kernels). The native and
JavaScript tests compare the core against these numbers. Run with Debian's /usr/bin/python3.
"""
from __future__ import annotations

import json
import struct
from decimal import Decimal
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "core.json"


def row_softmax(scores: np.ndarray) -> np.ndarray:
    """The chapter's stable row softmax."""
    shifted = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=1, keepdims=True)


def gaussian_attention(queries, keys, values, bandwidth):
    """The chapter's fixed Gaussian attention, Q:(m,d), K:(n,d), V:(n,p)."""
    distances2 = ((queries[:, None, :] - keys[None, :, :]) ** 2).sum(axis=2)
    log_scores = -distances2 / (2.0 * bandwidth**2)
    weights = row_softmax(log_scores)
    return weights @ values, weights


def distances(queries, keys):
    return np.sqrt(((queries[:, None, :] - keys[None, :, :]) ** 2).sum(axis=2))


def nearest_limit(distance_row):
    nearest = distance_row == distance_row.min()
    return nearest / nearest.sum()


def kernel_weights(name, queries, keys, bandwidth):
    """Weights of every kernel, each computed its own way: (m, n) and the empty query rows."""
    if name == "gaussian":
        return gaussian_attention(queries, keys, np.zeros((len(keys), 1)), bandwidth)[1], []
    u = distances(queries, keys) / bandwidth
    if name == "laplacian":
        return row_softmax(-u), []
    if name == "epanechnikov":
        kappa = np.clip(1.0 - u**2, 0.0, None)
    else:
        kappa = np.clip(1.0 - u**3, 0.0, None) ** 3
    totals = kappa.sum(axis=1)
    empty = np.flatnonzero(totals == 0.0)
    weights = np.empty_like(kappa)
    for r in range(len(queries)):
        if totals[r] > 0.0:
            weights[r] = kappa[r] / totals[r]
        else:
            weights[r] = nearest_limit(distances(queries[r : r + 1], keys)[0])
    return weights, empty.tolist()


def ols_weight_matrix(keys, queries):
    design = np.column_stack([np.ones(len(keys)), keys])
    query_design = np.column_stack([np.ones(len(queries)), queries])
    return query_design @ np.linalg.solve(design.T @ design, design.T)


def flat(array) -> list[float]:
    return np.asarray(array, dtype=float).ravel().tolist()


def chapter_examples() -> dict:
    keys3 = np.array([[1.0], [3.0], [5.0]])
    values3 = np.array([[1.5], [2.8], [1.8]])
    pred3, weights3 = gaussian_attention(np.array([[3.5]]), keys3, values3, 0.6)

    ols_keys = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    ols_query = 1.5
    ols_weights = ols_weight_matrix(ols_keys[:, None], np.array([[ols_query]]))[0]
    witness = np.array([[1.0], [0.0], [0.0], [0.0], [0.0]])
    nw_pred, nw_weights = gaussian_attention(np.array([[ols_query]]), ols_keys[:, None], witness, 1.0)

    keys = np.sort(np.random.default_rng(605012).uniform(-3.0, 3.0, size=60))
    truth = np.sin(1.5 * keys) + 0.3 * np.cos(4.0 * keys)
    observed = truth + np.random.default_rng(605013).normal(0.0, 0.25, size=keys.size)

    identity_query, identity_h = 0.37, 0.28
    log_kernel = -0.5 * ((identity_query - keys) / identity_h) ** 2
    direct_kernel = np.exp(log_kernel)
    direct_weights = direct_kernel / direct_kernel.sum()
    softmax_weights = row_softmax(log_kernel[None, :])[0]

    far_log_kernel = -0.5 * ((1_000.0 - keys) / 0.1) ** 2
    far_kernel = np.exp(far_log_kernel)
    with np.errstate(divide="ignore", invalid="ignore"):
        naive_far = far_kernel / far_kernel.sum()
    stable_far = row_softmax(far_log_kernel[None, :])[0]

    map_queries = np.linspace(-2.9, 2.9, 31)
    map_outputs, attention_map = gaussian_attention(map_queries[:, None], keys[:, None], observed[:, None], 0.18)

    tie_keys = np.array([[0.0], [0.0], [1.0]])
    ties = []
    for h in [1.0, 0.3, 0.1, 0.03, 0.01, 0.001]:
        ties.append({"bandwidth": h, "weights": flat(gaussian_attention(np.zeros((1, 1)), tie_keys, np.zeros((3, 1)), h)[1])})

    return {
        "three_point": {"keys": flat(keys3), "values": flat(values3), "query": 3.5, "bandwidth": 0.6,
                        "weights": flat(weights3), "prediction": float(pred3.item())},
        "ols": {"keys": flat(ols_keys), "query": ols_query, "weights": flat(ols_weights),
                "witness": flat(witness), "ols_prediction": float(ols_weights @ witness[:, 0]),
                "nw_bandwidth": 1.0, "nw_weights": flat(nw_weights), "nw_prediction": float(nw_pred.item())},
        "chapter_keys": flat(keys),
        "observed_values": flat(observed),
        "identity": {"query": identity_query, "bandwidth": identity_h, "log_kernel": flat(log_kernel),
                     "weights": flat(softmax_weights),
                     "max_abs_difference": float(np.max(np.abs(direct_weights - softmax_weights)))},
        "far": {"query": 1000.0, "bandwidth": 0.1, "log_kernel": flat(far_log_kernel),
                "naive_denominator": float(far_kernel.sum()),
                "naive_all_finite": bool(np.all(np.isfinite(naive_far))),
                "stable_weights": flat(stable_far), "stable_sum": float(stable_far.sum()),
                "nearest_index": int(np.argmax(stable_far)),
                "nearest_key": float(keys[np.argmax(stable_far)])},
        "map": {"queries": flat(map_queries), "bandwidth": 0.18, "weights": flat(attention_map),
                "outputs": flat(map_outputs),
                "max_row_sum_error": float(np.max(np.abs(attention_map.sum(axis=1) - 1)))},
        "ties": {"keys": flat(tie_keys), "query": 0.0, "cases": ties},
    }


def random_cases(rng: np.random.Generator) -> tuple[list, list]:
    attention_cases = []
    for kernel in ["gaussian", "laplacian", "epanechnikov", "tricube"]:
        for d in range(1, 6):
            for _ in range(4):
                m, n, p = int(rng.integers(1, 13)), int(rng.integers(1, 21)), int(rng.integers(1, 4))
                bandwidth = float(np.exp(rng.uniform(np.log(0.03), np.log(6.0))))
                queries = rng.uniform(-3.0, 3.0, size=(m, d))
                keys = rng.uniform(-3.0, 3.0, size=(n, d))
                values = rng.normal(size=(n, p))
                weights, empty = kernel_weights(kernel, queries, keys, bandwidth)
                attention_cases.append({
                    "kernel": kernel, "d": d, "p": p, "bandwidth": bandwidth,
                    "queries": flat(queries), "keys": flat(keys), "values": flat(values),
                    "squared_distances": flat(distances(queries, keys) ** 2),
                    "dot_products": flat(queries @ keys.T),
                    "weights": flat(weights), "outputs": flat(weights @ values), "empty_rows": empty,
                })
    ols_cases = []
    for d in range(1, 4):
        for _ in range(4):
            n, m = int(rng.integers(d + 1, 12)), int(rng.integers(1, 6))
            keys = rng.uniform(-3.0, 3.0, size=(n, d))
            queries = rng.uniform(-3.0, 3.0, size=(m, d))
            targets = rng.normal(size=n)
            weights = ols_weight_matrix(keys, queries)
            ols_cases.append({"d": d, "keys": flat(keys), "queries": flat(queries), "targets": flat(targets),
                              "weights": flat(weights), "predictions": flat(weights @ targets)})
    return attention_cases, ols_cases


def sum_cases(rng: np.random.Generator) -> list:
    """np.sum of assorted lengths (pairwise blocking kicks in at 8 and 128 terms), as hex for bit checks."""
    cases = []
    for n in [1, 3, 7, 8, 9, 15, 16, 17, 60, 127, 128, 129, 255, 256, 300, 1000, 2049]:
        values = rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, size=n)
        cases.append({"values": [v.hex() for v in values], "sum": float(np.sum(values)).hex()})
    return cases


def ols_slider_stops() -> dict:
    """The chapter's OLS route at every stop of the query sliders (-3..3 by 0.05) of the figures
    that show OLS weights on the keys -2..2, as big-endian IEEE-754 bit patterns (16 hex digits per
    double) for bit checks: at q = 1.00 the first weight is 0, not -5.55e-17."""
    keys = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    design = np.column_stack([np.ones_like(keys), keys])
    stops = []
    for i in range(121):
        query = float(Decimal(-3) + i * Decimal("0.05"))
        query_design = np.array([1.0, query])
        weights = query_design @ np.linalg.solve(design.T @ design, design.T)
        stops.append({"query": query, "weights": "".join(struct.pack(">d", w).hex() for w in weights)})
    return {"keys": flat(keys), "stops": stops}


def main() -> None:
    attention_cases, ols_cases = random_cases(np.random.default_rng(20240612))
    fixture = {"chapter": chapter_examples(), "attention_cases": attention_cases, "ols_cases": ols_cases,
               "sums": sum_cases(np.random.default_rng(7)), "ols_slider_stops": ols_slider_stops()}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(fixture, indent=1) + "\n")
    print(f"wrote {OUT} ({len(attention_cases)} attention cases, {len(ols_cases)} OLS cases)")


if __name__ == "__main__":
    main()
