#!/usr/bin/python3
"""NumPy reference fixtures for the generator and the laboratory.

Writes tests/fixtures/random.json (numpy.random.default_rng streams, doubles hex-encoded as
big-endian IEEE-754 bit patterns, 16 hex digits each) and tests/fixtures/laboratory.json (the
chapter's bias/variance table, exact risk, exercises 3 and 5, leave-one-out curves) for the chapter's
configuration and for other seeds, sizes and noise levels. Run with Debian's /usr/bin/python3.
"""
from __future__ import annotations

import json
import pathlib
import struct

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"


def hex_doubles(values) -> str:
    return "".join(struct.pack(">d", float(v)).hex() for v in np.asarray(values, dtype=float).ravel())


def hex_matrix(values) -> str:
    return hex_doubles(np.asarray(values).ravel())


# ---------------------------------------------------------------- random streams
STREAM_SEEDS = [0, 1, 605014, 2**32 + 7, 98765432109876, 2**53 - 1]


def stream_fixture(seed: int) -> dict:
    """One Generator, several consecutive calls: each continues where the previous stopped."""
    rng = np.random.default_rng(seed)
    calls = [
        {"method": "random", "args": [], "count": 400},
        {"method": "uniform", "args": [-3.0, 3.0], "count": 400},
        {"method": "standardNormal", "args": [], "count": 5000},
        {"method": "normal", "args": [0.5, 2.5], "count": 600},
        {"method": "random", "args": [], "count": 50},
    ]
    for call in calls:
        n = call["count"]
        if call["method"] == "random":
            draws = rng.random(n)
        elif call["method"] == "uniform":
            draws = rng.uniform(call["args"][0], call["args"][1], n)
        elif call["method"] == "standardNormal":
            draws = rng.standard_normal(n)
        else:
            draws = rng.normal(call["args"][0], call["args"][1], n)
        call["hex"] = hex_doubles(draws)
    seed_words = np.random.SeedSequence(seed).generate_state(8, np.uint32)
    state = np.random.PCG64(seed).state["state"]
    return {
        "seed": seed,
        "seedSequenceWords": [int(w) for w in seed_words],
        "pcgState": str(state["state"]),
        "pcgIncrement": str(state["inc"]),
        "calls": calls,
    }


def tail_fixture(seed: int, count: int) -> dict:
    """standard_normal(count) in one call: every draw beyond r (the ziggurat's tail) by index,
    and a checksum of all bit patterns (sum mod 2^64) so the whole stream is compared exactly."""
    draws = np.random.default_rng(seed).standard_normal(count)
    bits = draws.view(np.uint64)
    checksum = int(np.sum(bits, dtype=np.uint64))
    tail = np.flatnonzero(np.abs(draws) > 3.6541528853610088)
    return {
        "seed": seed,
        "count": count,
        "checksum": str(checksum),
        "tailIndices": [int(i) for i in tail],
        "tailHex": hex_doubles(draws[tail]),
    }


# ---------------------------------------------------------------- the chapter's laboratory
def truth(x):
    return np.sin(1.5 * x) + 0.3 * np.cos(4.0 * x)


def row_softmax(scores):
    shifted = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=1, keepdims=True)


def gaussian_weights(queries, keys, bandwidth):
    """Q:(m,d), K:(n,d) -> A:(m,n), the chapter's gaussian_attention weights."""
    distances2 = ((queries[:, None, :] - keys[None, :, :]) ** 2).sum(axis=2)
    return row_softmax(-distances2 / (2.0 * bandwidth**2))


CHAPTER = {
    "keySeed": 605012, "observedSeed": 605013, "monteCarloSeed": 605014,
    "keys": 60, "queries": 241, "worlds": 1000, "noise": 0.25,
    "bandwidths": [0.05, 0.08, 0.12, 0.18, 0.28, 0.42, 0.65, 1.00],
    "keyLow": -3.0, "keyHigh": 3.0, "queryLow": -2.9, "queryHigh": 2.9,
}


def dataset(config):
    keys = np.sort(np.random.default_rng(config["keySeed"]).uniform(
        config["keyLow"], config["keyHigh"], size=config["keys"]))
    observed = truth(keys) + np.random.default_rng(config["observedSeed"]).normal(
        0.0, config["noise"], size=keys.size)
    queries = np.linspace(config["queryLow"], config["queryHigh"], config["queries"])
    return keys, observed, queries


def sweep(config):
    """The chapter's code, verbatim in substance: the (world, query) prediction matrix."""
    keys, _, queries = dataset(config)
    responses = truth(keys)[None, :] + np.random.default_rng(config["monteCarloSeed"]).normal(
        0.0, config["noise"], size=(config["worlds"], keys.size))
    rows = []
    for bandwidth in config["bandwidths"]:
        weights = gaussian_weights(queries[:, None], keys[:, None], bandwidth)
        predictions = responses @ weights.T
        mean_prediction = predictions.mean(axis=0)
        rows.append({
            "bandwidth": bandwidth, "tau": 2 * bandwidth**2,
            "bias2": float(np.mean((mean_prediction - truth(queries)) ** 2)),
            "variance": float(np.mean(np.var(predictions, axis=0))),
            "mse": float(np.mean((predictions - truth(queries)[None, :]) ** 2)),
        })
    return rows


def exact_risk(config):
    keys, _, queries = dataset(config)
    rows = []
    for bandwidth in config["bandwidths"]:
        weights = gaussian_weights(queries[:, None], keys[:, None], bandwidth)
        bias2 = float(np.mean((weights @ truth(keys) - truth(queries)) ** 2))
        variance = float(config["noise"] ** 2 * np.mean(np.sum(weights**2, axis=1)))
        rows.append({"bandwidth": bandwidth, "tau": 2 * bandwidth**2,
                     "bias2": bias2, "variance": variance, "mse": bias2 + variance})
    return rows


def loo_curve(keys, values, bandwidths):
    """Leave-one-out MSE: each point predicted from the others (own weight dropped, renormalised)."""
    out = []
    for bandwidth in bandwidths:
        distances2 = ((keys[:, None, :] - keys[None, :, :]) ** 2).sum(axis=2)
        scores = -distances2 / (2.0 * bandwidth**2)
        np.fill_diagonal(scores, -np.inf)
        predictions = row_softmax(scores) @ values
        out.append(float(np.mean((predictions - values) ** 2)))
    return out


SELECTION = {"seed": 605015, "train": 60, "validation": 40, "test": 40, "noise": 0.25,
             "bandwidths": CHAPTER["bandwidths"], "keyLow": -3.0, "keyHigh": 3.0,
             "curvePoints": 241, "queryLow": -2.9, "queryHigh": 2.9}


def bandwidth_selection(config):
    rng = np.random.default_rng(config["seed"])
    total = config["train"] + config["validation"] + config["test"]
    x = rng.uniform(config["keyLow"], config["keyHigh"], size=total)
    y = truth(x) + rng.normal(0.0, config["noise"], size=total)
    cut1, cut2 = config["train"], config["train"] + config["validation"]

    def split(lo, hi):
        order = np.argsort(x[lo:hi], kind="stable")
        return x[lo:hi][order], y[lo:hi][order]

    (xt, yt), (xv, yv), (xs, ys) = split(0, cut1), split(cut1, cut2), split(cut2, total)

    def mse_at(h, xq, yq):
        return float(np.mean((gaussian_weights(xq[:, None], xt[:, None], h) @ yt - yq) ** 2))

    bandwidths = config["bandwidths"]
    validation = [mse_at(h, xv, yv) for h in bandwidths]
    training = [mse_at(h, xt, yt) for h in bandwidths]
    loo = loo_curve(xt[:, None], yt, bandwidths)
    selected = int(np.argmin(validation))
    loo_selected = int(np.argmin(loo))
    lab = dict(CHAPTER, bandwidths=list(bandwidths), noise=config["noise"])
    audit = sweep(lab)
    truth_index = int(np.argmin([row["mse"] for row in audit]))
    return {
        "config": config,
        "trainKeys": hex_doubles(xt), "validationKeys": hex_doubles(xv), "testKeys": hex_doubles(xs),
        "trainValues": hex_doubles(yt), "testValues": hex_doubles(ys),
        "trainingMse": training, "validationMse": validation, "looMse": loo,
        "selectedIndex": selected, "testMse": mse_at(bandwidths[selected], xs, ys),
        "looSelectedIndex": loo_selected, "looTestMse": mse_at(bandwidths[loo_selected], xs, ys),
        "truthIndex": truth_index, "truthMse": audit[truth_index]["mse"],
        "truthTestMse": mse_at(bandwidths[truth_index], xs, ys),
    }


STANDARDIZE = {"seed": 605016, "keys": 60, "queries": 31, "noise": 0.25, "bandwidth": 0.5,
               "featureScales": [1.0, 1000.0]}


def truth_2d(u):
    return np.sin(1.5 * u[:, 0]) + 0.3 * np.cos(4.0 * u[:, 1])


def standardize_exercise(config):
    rng = np.random.default_rng(config["seed"])
    natural_keys = rng.uniform(-3.0, 3.0, size=(config["keys"], 2))
    values = truth_2d(natural_keys) + rng.normal(0.0, config["noise"], size=config["keys"])
    natural_queries = rng.uniform(-3.0, 3.0, size=(config["queries"], 2))
    key_order = np.argsort(natural_keys[:, 0], kind="stable")
    query_order = np.argsort(natural_queries[:, 0], kind="stable")
    natural_keys, values = natural_keys[key_order], values[key_order]
    natural_queries = natural_queries[query_order]
    scales = np.asarray(config["featureScales"])
    raw_keys, raw_queries = natural_keys * scales, natural_queries * scales
    mean, scale = raw_keys.mean(axis=0), raw_keys.std(axis=0)
    std_keys, std_queries = (raw_keys - mean) / scale, (raw_queries - mean) / scale
    h = config["bandwidth"]
    raw_weights = gaussian_weights(raw_queries, raw_keys, h)
    std_weights = gaussian_weights(std_queries, std_keys, h)
    target = truth_2d(natural_queries)

    def shares(q, k):
        diffs2 = (q[:, None, :] - k[None, :, :]) ** 2
        per_feature = diffs2.sum(axis=(0, 1))
        return (per_feature / per_feature.sum()).tolist()

    return {
        "config": config,
        "rawKeys": hex_matrix(raw_keys), "rawQueries": hex_matrix(raw_queries),
        "values": hex_doubles(values), "mean": mean.tolist(), "scale": scale.tolist(),
        "rawWeights": hex_matrix(raw_weights), "standardizedWeights": hex_matrix(std_weights),
        "rawMse": float(np.mean((raw_weights @ values - target) ** 2)),
        "standardizedMse": float(np.mean((std_weights @ values - target) ** 2)),
        "rawDistanceShare": shares(raw_queries, raw_keys),
        "standardizedDistanceShare": shares(std_queries, std_keys),
    }


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    random_fixture = {
        "numpy": np.__version__,
        "streams": [stream_fixture(seed) for seed in STREAM_SEEDS],
        "tails": [tail_fixture(20240611, 1_000_000), tail_fixture(2**40 + 12345, 300_000)],
    }
    (FIXTURES / "random.json").write_text(json.dumps(random_fixture) + "\n")

    other = [
        dict(CHAPTER, keySeed=7, observedSeed=8, monteCarloSeed=2**40 + 3, keys=25, queries=57,
             worlds=300, noise=0.6, bandwidths=[0.03, 0.1, 0.5, 2.0]),
        dict(CHAPTER, keySeed=123456789, observedSeed=0, monteCarloSeed=1, keys=90, queries=101,
             worlds=2, noise=0.05, bandwidths=[0.02, 0.07, 0.3], keyLow=-1.0, keyHigh=4.0,
             queryLow=-0.5, queryHigh=3.5),
        dict(CHAPTER, keySeed=2**52 + 11, observedSeed=5, monteCarloSeed=6, keys=30, queries=1999,
             worlds=50, noise=1.5, bandwidths=[0.004, 0.05, 5.0], queryLow=-6.0, queryHigh=6.0),
    ]
    keys, observed, queries = dataset(CHAPTER)
    exact_config = dict(CHAPTER, bandwidths=list(np.geomspace(0.02, 2.0, 25)))
    loo_keys = np.random.default_rng(31).uniform(-2, 2, size=(40, 2))
    loo_values = np.sin(loo_keys[:, 0]) + 0.1 * np.random.default_rng(32).standard_normal(40)
    loo_bandwidths = [0.05, 0.2, 0.6, 3.0]
    laboratory = {
        "chapter": {
            "config": CHAPTER,
            "keys": hex_doubles(keys), "observedValues": hex_doubles(observed),
            "queries": hex_doubles(queries),
            "sweep": sweep(CHAPTER),
            "exactRisk": exact_risk(exact_config), "exactRiskBandwidths": exact_config["bandwidths"],
        },
        "other": [{"config": c, "sweep": sweep(c), "exactRisk": exact_risk(c)} for c in other],
        "loo": {"keys": hex_matrix(loo_keys), "values": hex_doubles(loo_values), "d": 2,
                "bandwidths": loo_bandwidths, "mse": loo_curve(loo_keys, loo_values, loo_bandwidths)},
        "selection": [bandwidth_selection(SELECTION),
                      bandwidth_selection(dict(SELECTION, seed=2**33 + 1, train=35, validation=20,
                                               test=25, noise=0.4,
                                               bandwidths=[0.04, 0.1, 0.2, 0.35, 0.7]))],
        "standardize": [standardize_exercise(STANDARDIZE),
                        standardize_exercise(dict(STANDARDIZE, seed=99, keys=40, queries=12,
                                                  bandwidth=0.8, featureScales=[0.001, 50.0]))],
    }
    (FIXTURES / "laboratory.json").write_text(json.dumps(laboratory) + "\n")


if __name__ == "__main__":
    main()
