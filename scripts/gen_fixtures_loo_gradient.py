#!/usr/bin/python3
"""Reference values for the leave-one-out risk of the Gaussian Nadaraya-Watson rule and its
derivative with respect to log h, with NumPy alone: the risk from the full n x n weight matrix
(each row's own key removed, the row renormalised, as looCurve defines it), the derivative by
central finite differences in log h (steps 1e-3 and 5e-4, combined by Richardson extrapolation,
so the truncation error is O(step^4)). Cases: the chapter's sample (the laboratory's seeds) at
seven bandwidths, and random keys with d = 1..3; and gradient descent on log h for the chapter's
sample, h_{t+1} = h_t exp(-rate g_t) with the finite-difference g_t, 12 steps from h = 1 at rate 2.

Writes tests/fixtures/loo_gradient.json. Run with Debian's /usr/bin/python3.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "loo_gradient.json"


def loo_risk(keys: np.ndarray, values: np.ndarray, bandwidth: float) -> float:
    distances = ((keys[:, None, :] - keys[None, :, :]) ** 2).sum(axis=2)
    np.fill_diagonal(distances, np.inf)
    scores = -distances / (2.0 * bandwidth**2)
    weights = np.exp(scores - scores.max(axis=1, keepdims=True))
    weights /= weights.sum(axis=1, keepdims=True)
    return float(np.mean((weights @ values - values) ** 2))


def log_h_derivative(keys: np.ndarray, values: np.ndarray, bandwidth: float) -> float:
    def central(step: float) -> float:
        up = loo_risk(keys, values, bandwidth * np.exp(step))
        down = loo_risk(keys, values, bandwidth * np.exp(-step))
        return (up - down) / (2.0 * step)

    coarse, fine = central(1e-3), central(5e-4)
    return (4.0 * fine - coarse) / 3.0


def case(keys: np.ndarray, values: np.ndarray, bandwidth: float) -> dict:
    return {
        "d": int(keys.shape[1]), "bandwidth": bandwidth,
        "keys": keys.ravel().tolist(), "values": values.tolist(),
        "risk": loo_risk(keys, values, bandwidth), "gradient": log_h_derivative(keys, values, bandwidth),
    }


def truth(x: np.ndarray) -> np.ndarray:
    return np.sin(1.5 * x) + 0.3 * np.cos(4.0 * x)


def main() -> None:
    keys = np.sort(np.random.default_rng(605012).uniform(-3.0, 3.0, size=60))
    observed = truth(keys) + np.random.default_rng(605013).normal(0.0, 0.25, size=keys.size)
    chapter = [case(keys[:, None], observed, h) for h in (0.05, 0.1, 0.14, 0.3, 0.65, 1.0, 2.0)]

    rng = np.random.default_rng(20261202)
    random_cases = []
    for i in range(9):
        d = 1 + i % 3
        n = int(rng.integers(8, 70))
        points = rng.uniform(-2.0, 2.0, size=(n, d))
        values = np.sin(2.0 * points).sum(axis=1) + rng.normal(0.0, 0.3, size=n)
        random_cases.append(case(points, values, float(np.exp(rng.uniform(np.log(0.1), np.log(3.0))))))

    bandwidth, rate, trajectory = 1.0, 2.0, []
    for _ in range(13):
        risk, gradient = loo_risk(keys[:, None], observed, bandwidth), log_h_derivative(keys[:, None], observed, bandwidth)
        trajectory.append({"bandwidth": bandwidth, "risk": risk, "gradient": gradient})
        bandwidth *= float(np.exp(-rate * gradient))
    descent = {"start": 1.0, "rate": rate, "steps": 12, "trajectory": trajectory}

    OUT.write_text(json.dumps({"chapter": chapter, "cases": random_cases, "descent": descent}, indent=1) + "\n")


if __name__ == "__main__":
    main()
