#pragma once
/// The work of each public function from its sizes alone, counted as Limits::max_work counts it:
/// kernel evaluations plus multiply-adds (a draw, a comparison or a parsed character counts one).
/// The functions that refuse a call over the budget check exactly these numbers (check_work), and
/// the engine places a call on the page or in the worker by them (wasm `workOf`,
/// web/src/engine/cost.ts): one formula per function, wherever it is read.
/// Every size is a count (a double, so that products of large counts cannot wrap).
#include "kernel_lens/exercises.hpp"
#include "kernel_lens/laboratory.hpp"

namespace kernel_lens::work {

/// m queries against n keys in d features, p value columns: a score (d), a kernel value and
/// the weighted sum (p) per pair. attention, attention_map.
double attention(double queries, double keys, double d, double p);
/// One score matrix: m x n scores of d features each, plus their softmax or kernel value.
double scores(double queries, double keys, double d);
/// OLS weights of m queries over n keys in d features: the (d + 1)^2 normal equations over the
/// keys, then one (d + 1)-vector per query and key.
double ols(double keys, double d, double queries);
/// Local-linear fits of m queries over n keys in d features, p value columns: the weights and
/// outputs (as attention), a weighted (d + 1)^2 covariance per query and key, and per query a
/// symmetric (d + 1) eigenproblem (about 16 (d + 1)^3).
double local_linear(double queries, double keys, double d, double p);
/// The smoother audit (one value column): the local-linear fit and the Nadaraya-Watson weights it
/// is compared with.
double smoother_audit(double queries, double keys, double d);
/// Leave-one-out over n keys in d features: the n^2 distances (d each), then n^2 kernel values
/// per bandwidth.
double loo(double keys, double d, double bandwidths);
/// The descent in log h: (steps + 1) leave-one-out risks and gradients at one bandwidth.
double loo_descent(double keys, double d, double steps);
/// Work proportional to a count: softmax cells, sums, interpolations, parsed characters, draws.
double linear(double count);
/// The chapter's dataset: its keys and queries drawn and evaluated.
double dataset(const LabConfig& config);
/// The bias/variance sweep: the responses' covariance (keys^2 x worlds / 2), then per bandwidth
/// the weights and their quadratic form with it (queries x keys x (keys + 2)).
double sweep(const LabConfig& config);
/// The audit's worlds: worlds x keys draws, then (curves + 1) curves over the queries.
double audit_worlds(const LabConfig& config, double curves);
/// The exact risk: bandwidths x queries x keys.
double exact_risk(const LabConfig& config);
/// Exercise 3's bandwidth selection: per bandwidth the training fit on every point, the
/// leave-one-out curve, three curves over curve_points, and the chapter's audit (sweep) over its
/// bandwidths, which finds the truth's grid minimum.
double selection(const SelectionConfig& config);
/// Exercise 5's standardisation: weights of queries and keys against the keys in two features,
/// raw and standardised.
double standardize(const StandardizeConfig& config);

}  // namespace kernel_lens::work
