#!/usr/bin/env python3
"""NumPy's printing under the chapter's print options, for the listings' formatter
(web/src/listings/numpy-print.ts): arrays as str() shows them after
np.set_printoptions(precision=4, suppress=True), and the f-string formats the listings use.
Writes tests/fixtures/numpy_print.json."""
import json
import pathlib

import numpy as np

np.set_printoptions(precision=4, suppress=True)
rng = np.random.default_rng(20261203)

arrays = [
    [0.0002, 0.9413, 0.0585],
    [-0.1, 0.05, 0.2, 0.35, 0.5],
    [0.001, 0.0206, 0.152, 0.4132, 0.4132],
    [0.03125, 0.00015, 0.5, -0.0],
    [-5.551115123125783e-17, 0.05, 0.2, 0.35, 0.5],
    [0.0, 0.0, 1.0],
    [1.0, 2.0, 3.0],
    [1e8, 1.5],
    [-1.23456789e9, 2.5, 0.0],
    [1e-300, 1.0],
    [float("nan"), 1.0, float("-inf")],
    [float("nan"), float("nan")],
    [float("inf")],
    [0.99996, 0.12345, 0.00005, 0.00004999],
    [123.456789, -7.0, 0.5],
    [1e7, 0.1],
    [99999999.99, 1.0],
    [2.5e-5, 7.5e-5, 1.25e-4],
    [],
]
arrays += [list(rng.uniform(-1, 1, size=n)) for n in (1, 2, 8, 13, 40, 60)]
arrays += [list(rng.dirichlet(np.ones(n))) for n in (3, 5, 8, 60)]
arrays += [list(rng.normal(0, 10.0 ** e, size=7)) for e in range(-6, 10, 2)]
arrays += [list(np.round(rng.uniform(0, 1, size=9), d)) for d in range(1, 7)]
arrays += [list(rng.uniform(0, 1, size=1200))]

scalars = [0.0, -0.0, 0.125, 0.03125, 2.7412, 0.0010, -0.1, 2.2204460492503131e-16, 2.78e-17, 1.0, 0.5, 2.5,
           0.00005, 1e21, 1e-320, 2.9886, 0.9999999999999999, 1e16, 123456.789, float("nan"), float("inf"), float("-inf")]
scalars += list(rng.normal(0, 1, size=40)) + list(10.0 ** rng.uniform(-20, 20, size=40))

def number(x):
    """A float for JSON: the non-finite ones as the strings "nan", "inf", "-inf"."""
    x = float(x)
    return x if np.isfinite(x) else str(x)


fixture = {
    "arrays": [{"values": [number(x) for x in a], "str": str(np.array(a, dtype=float))} for a in arrays],
    "scalars": [
        {
            "value": number(x),
            "f1": f"{x:.1f}",
            "f2": f"{x:.2f}",
            "f4": f"{x:.4f}",
            "e2": f"{x:.2e}",
            "str": str(np.float64(x)),
        }
        for x in scalars
    ],
}
out = pathlib.Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "numpy_print.json"
out.write_text(json.dumps(fixture, indent=1, allow_nan=False) + "\n")
print(f"numpy_print: {len(fixture['arrays'])} arrays, {len(fixture['scalars'])} scalars -> {out}")
