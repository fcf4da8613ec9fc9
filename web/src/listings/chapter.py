# The code of "12 Kernel Regression: Attention Before It Was Learnable", in the chapter's order.
# Written by scripts/extract-listings.mjs from the chapter's text: do not edit by hand.
# The page shows each listing where the chapter puts it; the build makes the notebook from it.

# %% [markdown]
# # 12 Kernel Regression: Attention Before It Was Learnable

# %% [markdown]
# ## 12.2 The magnifying glass becomes a kernel

# %% Code: fixed Gaussian attention, from scores to mixtures id="attention"
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import torch

torch.manual_seed(6050)
np.set_printoptions(precision=4, suppress=True)

def row_softmax(scores: np.ndarray) -> np.ndarray:
    """Normalize each row after a stability-preserving shift."""
    shifted = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=1, keepdims=True)

def gaussian_attention(
    queries: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    bandwidth: float,
) -> tuple[np.ndarray, np.ndarray]:
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

keys3 = np.array([[1.0], [3.0], [5.0]])
values3 = np.array([[1.5], [2.8], [1.8]])
query3 = np.array([[3.5]])
pred3, weights3 = gaussian_attention(query3, keys3, values3, bandwidth=0.6)
print("weights:", weights3[0])
print(f"prediction: {pred3.item():.4f}")

# %% Figure: the three-point lookup id="lookup-figure"
fig, axes = plt.subplots(1, 2, figsize=(7.2, 3.0), constrained_layout=True)
axes[0].scatter(keys3[:, 0], values3[:, 0], s=55, color="#232D4B", zorder=3)
axes[0].axvline(query3.item(), color="#E57200", ls="--", lw=1.4)
axes[0].scatter(query3.item(), pred3.item(), marker="*", s=130,
                color="#E57200", zorder=4)
for key, value, weight in zip(keys3[:, 0], values3[:, 0], weights3[0]):
    axes[0].plot([query3.item(), key], [pred3.item(), value],
                 color="#B45309", lw=0.8 + 5.0 * weight,
                 alpha=0.25 + 0.7 * weight)
axes[0].set(xlabel="location", ylabel="value", title="Query nearby evidence")
axes[0].set_xticks([1, 3, 3.5, 5], ["1", "3", "q=3.5", "5"])
axes[0].annotate(r"$\hat f(q)=2.74$", (query3.item(), pred3.item()),
                 xytext=(8, -22), textcoords="offset points", color="#B45309")

axes[1].bar(["$k_1$", "$k_2$", "$k_3$"], weights3[0],
            color=["#B0B7C3", "#E57200", "#B45309"])
for i, weight in enumerate(weights3[0]):
    axes[1].text(i, weight + 0.025, f"{weight:.4f}", ha="center")
axes[1].set(ylabel="normalized weight", ylim=(0, 1.05),
            title="Similarity decides the mix")
plt.show()

# %% Code: signed OLS weights versus convex kernel weights id="ols"
ols_keys = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
ols_query = 1.5
design = np.column_stack([np.ones_like(ols_keys), ols_keys])
query_design = np.array([1.0, ols_query])
ols_weights = query_design @ np.linalg.solve(design.T @ design, design.T)

witness_values = np.array([[1.0], [0.0], [0.0], [0.0], [0.0]])
nw_pred, nw_weights = gaussian_attention(
    np.array([[ols_query]]), ols_keys[:, None], witness_values, bandwidth=1.0
)
print("OLS weights:", ols_weights, "sum:", ols_weights.sum())
print("NW  weights:", nw_weights[0], "sum:", nw_weights.sum())
print(f"witness predictions: OLS {ols_weights @ witness_values[:, 0]:.4f}, "
      f"NW {nw_pred.item():.4f}; target range [0, 1]")

# %% [markdown]
# ## 12.4 Bandwidth: the honesty gate

# %% Code: fixed-design bias/variance sweep over 1,000 noisy worlds id="sweep"
def truth(x: np.ndarray) -> np.ndarray:
    return np.sin(1.5 * x) + 0.3 * np.cos(4.0 * x)

data_rng = np.random.default_rng(605012)
keys = np.sort(data_rng.uniform(-3.0, 3.0, size=60))
observed_rng = np.random.default_rng(605013)
observed_values = truth(keys) + observed_rng.normal(0.0, 0.25, size=keys.size)
queries = np.linspace(-2.9, 2.9, 241)

mc_rng = np.random.default_rng(605014)
responses = truth(keys)[None, :] + mc_rng.normal(
    0.0, 0.25, size=(1_000, keys.size)
)
bandwidths = np.array([0.05, 0.08, 0.12, 0.18, 0.28, 0.42, 0.65, 1.00])

rows = []
for bandwidth in bandwidths:
    _, weights = gaussian_attention(
        queries[:, None], keys[:, None], observed_values[:, None], bandwidth
    )
    predictions = responses @ weights.T                 # (world, query)
    mean_prediction = predictions.mean(axis=0)
    squared_bias = np.mean((mean_prediction - truth(queries)) ** 2)
    variance = np.mean(np.var(predictions, axis=0))
    mse = np.mean((predictions - truth(queries)[None, :]) ** 2)
    rows.append((bandwidth, 2 * bandwidth**2, squared_bias, variance, mse))

print(" h     2h^2    bias^2  variance     MSE")
for row in rows:
    print(f"{row[0]:.2f}   {row[1]:.4f}   {row[2]:.4f}   "
          f"{row[3]:.4f}   {row[4]:.4f}")
best = rows[int(np.argmin([row[-1] for row in rows]))]
print(f"grid minimum: h={best[0]:.2f}, MSE={best[-1]:.4f}")

# %% Figure: bandwidth as the smoothness dial id="smoothing-figure"
fig, ax = plt.subplots(figsize=(7.2, 4.1), constrained_layout=True)
dense = np.linspace(-3.0, 3.0, 601)
ax.plot(dense, truth(dense), color="black", lw=2.0, label="truth")
ax.scatter(keys, observed_values, s=15, color="#555555", alpha=0.72,
           label="one noisy sample", zorder=3)
for bandwidth, color in [(0.05, "#D55E00"),
                         (0.18, "#0072B2"),
                         (0.65, "#009E73")]:
    predictions, _ = gaussian_attention(
        dense[:, None], keys[:, None], observed_values[:, None], bandwidth
    )
    ax.plot(dense, predictions[:, 0], color=color, lw=1.8,
            label=fr"$h={bandwidth:.2f}$")
ax.set(xlabel="query $q$", ylabel="prediction",
       title="Bandwidth is a smoothness dial")
ax.legend(ncol=2, frameon=False, fontsize=9)
plt.show()

# %% [markdown]
# ## 12.5 From one query to an attention matrix

# %% Figure: measured trade-off and the first attention map id="map-figure"
fig, axes = plt.subplots(1, 2, figsize=(7.4, 3.25), constrained_layout=True)
row_array = np.asarray(rows)
axes[0].plot(row_array[:, 0], row_array[:, 2], "o-", label=r"bias$^2$")
axes[0].plot(row_array[:, 0], row_array[:, 3], "o-", label="variance")
axes[0].plot(row_array[:, 0], row_array[:, 4], "o-", lw=2.2, label="MSE")
axes[0].axvline(best[0], color="#888888", ls="--", lw=1)
axes[0].set_xscale("log")
axes[0].set(xlabel="bandwidth $h$", ylabel="error against true $f$",
            title="The trade-off is measurable")
axes[0].legend(frameon=False, fontsize=8)

map_queries = np.linspace(-2.9, 2.9, 31)
map_predictions, attention_map = gaussian_attention(
    map_queries[:, None], keys[:, None], observed_values[:, None], best[0]
)
image = axes[1].imshow(
    attention_map, origin="lower", aspect="auto", cmap="magma",
    extent=(-0.5, len(keys) - 0.5, map_queries[0], map_queries[-1]),
)
key_index_at_query = np.interp(map_queries, keys, np.arange(len(keys)))
axes[1].plot(key_index_at_query, map_queries, color="white", lw=1.0, alpha=0.8)
ticks = np.array([0, 15, 30, 45, 59])
axes[1].set_xticks(ticks, [f"{keys[i]:.1f}" for i in ticks])
axes[1].set(xlabel="key location $k_i$ (sorted)", ylabel="query $q$",
            title=fr"Fixed attention matrix, $h={best[0]:.2f}$")
fig.colorbar(image, ax=axes[1], label="weight", fraction=0.05, pad=0.04)
plt.show()

print(f"Q {map_queries[:, None].shape}, K {keys[:, None].shape}, "
      f"V {observed_values[:, None].shape}, A {attention_map.shape}, "
      f"AV {map_predictions.shape}")
print("maximum row-sum error:",
      f"{np.max(np.abs(attention_map.sum(axis=1) - 1)):.2e}")

# %% Code: verify the log-kernel identity and survive underflow id="underflow"
identity_query, identity_h = 0.37, 0.28
log_kernel = -0.5 * ((identity_query - keys) / identity_h) ** 2
direct_kernel = np.exp(log_kernel)
direct_weights = direct_kernel / direct_kernel.sum()
softmax_weights = row_softmax(log_kernel[None, :])[0]

far_log_kernel = -0.5 * ((1_000.0 - keys) / 0.1) ** 2
far_kernel = np.exp(far_log_kernel)
with np.errstate(divide="ignore", invalid="ignore"):
    naive_far_weights = far_kernel / far_kernel.sum()
stable_far_weights = row_softmax(far_log_kernel[None, :])[0]

print("max |normalize(K)-softmax(log K)|:",
      f"{np.max(np.abs(direct_weights - softmax_weights)):.2e}")
print(f"far query: naive denominator={far_kernel.sum():.1f}, "
      f"all finite={np.all(np.isfinite(naive_far_weights))}")
print(f"stable: sum={stable_far_weights.sum():.1f}, "
      f"nearest key={keys[np.argmax(stable_far_weights)]:.4f}")
