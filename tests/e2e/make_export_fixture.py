"""Reference numbers for the export browser test: the chapter's code for the three-point lookup
(q = 3.5, h = 0.6) and the OLS weights at q = 1.5, at full double precision.
Run with Debian's /usr/bin/python3 (it has NumPy):
    /usr/bin/python3 tests/e2e/make_export_fixture.py
"""
import json
import pathlib

import numpy as np


def row_softmax(scores):
    shifted = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=1, keepdims=True)


def gaussian_attention(queries, keys, values, bandwidth):
    distances2 = ((queries[:, None, :] - keys[None, :, :]) ** 2).sum(axis=2)
    weights = row_softmax(-distances2 / (2.0 * bandwidth**2))
    return weights @ values, weights


keys3 = np.array([[1.0], [3.0], [5.0]])
values3 = np.array([[1.5], [2.8], [1.8]])
pred3, weights3 = gaussian_attention(np.array([[3.5]]), keys3, values3, 0.6)

ols_keys = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
design = np.column_stack([np.ones_like(ols_keys), ols_keys])
ols_weights = np.array([1.0, 1.5]) @ np.linalg.solve(design.T @ design, design.T)
witness = np.array([[1.0], [0.0], [0.0], [0.0], [0.0]])
_, nw_weights = gaussian_attention(np.array([[1.5]]), ols_keys[:, None], witness, 1.0)

fixture = {
    "lookup": {"weights": weights3[0].tolist(), "prediction": float(pred3.item())},
    "olsVsNw": {"ols": ols_weights.tolist(), "nw": nw_weights[0].tolist()},
}
path = pathlib.Path(__file__).with_name("fixtures") / "export.json"
path.write_text(json.dumps(fixture, indent=2) + "\n")
print(f"wrote {path}")
