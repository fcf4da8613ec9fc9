#!/usr/bin/python3
"""NumPy reference fixture for the grid minimum: tests/fixtures/grid_minimum.json.

Each case holds a bandwidth grid, its risks and numpy.argmin of the risks. The risks are the
chapter's 1,000-world audit (section 12.4, the chapter's own code) at its seeds and at two other
noise levels, plus hand-made curves with ties. Run with Debian's /usr/bin/python3.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "grid_minimum.json"
BANDWIDTHS = [0.05, 0.08, 0.12, 0.18, 0.28, 0.42, 0.65, 1.00]


def truth(x: np.ndarray) -> np.ndarray:
    return np.sin(1.5 * x) + 0.3 * np.cos(4.0 * x)


def audit_mse(noise: float, worlds: int = 1000) -> list[float]:
    """The chapter's fixed-design sweep: MSE per bandwidth against the noiseless truth."""
    keys = np.sort(np.random.default_rng(605012).uniform(-3.0, 3.0, size=60))
    queries = np.linspace(-2.9, 2.9, 241)
    responses = truth(keys)[None, :] + np.random.default_rng(605014).normal(0.0, noise, size=(worlds, keys.size))
    out = []
    for h in BANDWIDTHS:
        scores = -((queries[:, None] - keys[None, :]) ** 2) / (2.0 * h**2)
        scores -= scores.max(axis=1, keepdims=True)
        weights = np.exp(scores)
        weights /= weights.sum(axis=1, keepdims=True)
        predictions = responses @ weights.T
        out.append(float(np.mean((predictions - truth(queries)[None, :]) ** 2)))
    return out


def case(name: str, bandwidths: list[float], risks: list[float]) -> dict:
    index = int(np.argmin(risks))
    return {"name": name, "bandwidths": bandwidths, "risks": risks, "index": index,
            "bandwidth": bandwidths[index], "risk": risks[index]}


def main() -> None:
    cases = [
        case("chapter audit, noise 0.25", BANDWIDTHS, audit_mse(0.25)),
        case("chapter audit, noise 0.1", BANDWIDTHS, audit_mse(0.1)),
        case("chapter audit, noise 0.6", BANDWIDTHS, audit_mse(0.6)),
        case("tie keeps the first", [0.1, 0.2, 0.3, 0.4], [0.5, 0.2, 0.2, 0.3]),
        case("single bandwidth", [0.7], [1.25]),
        case("minimum at the end", [0.1, 0.2, 0.3], [3.0, 2.0, 1.0]),
    ]
    FIXTURE.write_text(json.dumps({"cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main()
