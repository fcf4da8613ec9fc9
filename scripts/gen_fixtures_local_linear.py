#!/usr/bin/python3
"""Reference values for local linear regression, with NumPy alone: the weighted least-squares
problem at each query solved directly (np.linalg.solve on the normal equations with the
intercept column), for d = 1..3, the four kernels and bandwidths 0.4..3, plus a boundary query
and a far query whose row is expected to fall back to the Nadaraya-Watson weights.

Writes tests/fixtures/local_linear.json. Run with Debian's /usr/bin/python3.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "local_linear.json"


def kernel_weights(queries, keys, bandwidth, kernel):
    """Normalised kernel weights (m, n) of the four kernels, from scaled distances u."""
    u = np.sqrt(((queries[:, None, :] - keys[None, :, :]) ** 2).sum(axis=2)) / bandwidth
    if kernel == "gaussian":
        raw = np.exp(-0.5 * u**2 - (-0.5 * u**2).max(axis=1, keepdims=True))
    elif kernel == "laplacian":
        raw = np.exp(-u + u.min(axis=1, keepdims=True))
    elif kernel == "epanechnikov":
        raw = np.maximum(0.0, 1.0 - u**2)
    else:
        raw = np.maximum(0.0, 1.0 - u**3) ** 3
    return raw / raw.sum(axis=1, keepdims=True)


def local_linear(queries, keys, values, bandwidth, kernel):
    """l(q) = e1^T (X^T W X)^{-1} X^T W, X rows [1, x_i - q], solved directly per query."""
    weights = kernel_weights(queries, keys, bandwidth, kernel)
    rows = []
    conditions = []
    for q, w in zip(queries, weights):
        design = np.column_stack([np.ones(len(keys)), keys - q])
        moments = design.T @ (w[:, None] * design)
        scale = 1.0 / np.sqrt(np.diag(moments))
        conditions.append(np.linalg.cond(scale[:, None] * moments * scale[None, :]))
        coefficients = np.linalg.solve(moments, np.eye(len(moments))[0])
        rows.append(w * (design @ coefficients))
    equivalent = np.array(rows)
    return equivalent, equivalent @ values, weights, conditions


def case(rng, m, n, d, p, bandwidth, kernel):
    keys = rng.uniform(-3.0, 3.0, size=(n, d))
    queries = rng.uniform(-2.5, 2.5, size=(m, d))
    values = rng.normal(size=(n, p))
    weights, outputs, _, conditions = local_linear(queries, keys, values, bandwidth, kernel)
    if max(conditions) > 1e4:
        return None
    return {
        "kernel": kernel, "bandwidth": bandwidth, "d": d, "p": p,
        "queries": queries.ravel().tolist(), "keys": keys.ravel().tolist(), "values": values.ravel().tolist(),
        "weights": weights.ravel().tolist(), "outputs": outputs.ravel().tolist(),
    }


def main() -> None:
    rng = np.random.default_rng(20261201)
    cases = []
    kernels = ["gaussian", "laplacian", "epanechnikov", "tricube"]
    while len(cases) < 24:
        kernel = kernels[len(cases) % 4]
        d = 1 + len(cases) % 3
        compact = kernel in ("epanechnikov", "tricube")
        made = case(rng, int(rng.integers(3, 9)), int(rng.integers(20, 60)), d, int(rng.integers(1, 3)),
                    float(rng.uniform(2.5, 4.0) if compact else rng.uniform(0.4, 3.0)), kernel)
        if made is not None:
            cases.append(made)

    # The boundary: keys on [0, 1], a query at the left edge; NW's weights are one-sided, the line's
    # go negative on the far keys. And a far query (q = 40, h = 0.5) that one key dominates.
    keys = np.linspace(0.0, 1.0, 11)[:, None]
    values = np.sin(3.0 * keys)
    edge = np.array([[0.0], [0.5]])
    weights, outputs, nw, _ = local_linear(edge, keys, values, 0.2, "gaussian")
    boundary = {"queries": edge.ravel().tolist(), "keys": keys.ravel().tolist(), "values": values.ravel().tolist(),
                "bandwidth": 0.2, "weights": weights.ravel().tolist(), "outputs": outputs.ravel().tolist(),
                "nw_weights": nw.ravel().tolist()}
    far_query = np.array([[0.5], [40.0]])
    far_nw = kernel_weights(far_query, keys, 0.5, "gaussian")
    far = {"queries": far_query.ravel().tolist(), "keys": keys.ravel().tolist(), "values": values.ravel().tolist(),
           "bandwidth": 0.5, "fallback_rows": [1], "nw_weights": far_nw.ravel().tolist()}
    OUT.write_text(json.dumps({"cases": cases, "boundary": boundary, "far": far}, indent=1) + "\n")


if __name__ == "__main__":
    main()
