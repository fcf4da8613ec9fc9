"""Reference numbers for the smoothing browser test, computed with NumPy exactly as the chapter's
Figure 12.2 code does. Run with Debian's /usr/bin/python3 (it has NumPy):
    /usr/bin/python3 tests/e2e/make_smoothing_fixture.py
"""
import json
import pathlib

import numpy as np


def truth(x):
    return np.sin(1.5 * x) + 0.3 * np.cos(4.0 * x)


def gaussian_predictions(queries, keys, values, bandwidth):
    scores = -((queries[:, None] - keys[None, :]) ** 2) / (2.0 * bandwidth**2)
    scores -= scores.max(axis=1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ values


keys = np.sort(np.random.default_rng(605012).uniform(-3.0, 3.0, size=60))
observed = truth(keys) + np.random.default_rng(605013).normal(0.0, 0.25, size=keys.size)
dense = np.linspace(-3.0, 3.0, 601)
indices = [100, 200, 300, 400, 500]
fixture = {
    "queries": [f"{dense[i]:.2f}" for i in indices],
    "truth": [f"{truth(dense[i]):.4f}" for i in indices],
    "predictions": {
        f"{h}": [f"{p:.4f}" for p in gaussian_predictions(dense, keys, observed, h)[indices]]
        for h in (0.05, 0.18, 0.65)
    },
}
path = pathlib.Path(__file__).with_name("fixtures") / "smoothing.json"
path.write_text(json.dumps(fixture, indent=2) + "\n")
print(path)
