#include "kernel_lens/work.hpp"

namespace kernel_lens::work {

double attention(double queries, double keys, double d, double p) { return queries * keys * (d + p + 1.0); }

double scores(double queries, double keys, double d) { return queries * keys * (d + 1.0); }

double ols(double keys, double d, double queries) {
  const double k = d + 1.0;
  return keys * k * k + queries * keys * k;
}

double local_linear(double queries, double keys, double d, double p) {
  const double k = d + 1.0;
  return attention(queries, keys, d, p) + queries * keys * k * k + queries * 16.0 * k * k * k;
}

double smoother_audit(double queries, double keys, double d) {
  return local_linear(queries, keys, d, 1.0) + attention(queries, keys, d, 1.0);
}

double loo(double keys, double d, double bandwidths) { return keys * keys * (d + bandwidths); }

double loo_descent(double keys, double d, double steps) { return (steps + 1.0) * loo(keys, d, 1.0); }

double linear(double count) { return count; }

double dataset(const LabConfig& config) {
  return static_cast<double>(config.keys) + static_cast<double>(config.queries);
}

double sweep(const LabConfig& config) {
  const auto keys = static_cast<double>(config.keys);
  return keys * keys * static_cast<double>(config.worlds) / 2.0 +
         static_cast<double>(config.bandwidths.size()) * static_cast<double>(config.queries) * keys * (keys + 2.0);
}

double audit_worlds(const LabConfig& config, double curves) {
  const auto keys = static_cast<double>(config.keys);
  return static_cast<double>(config.worlds) * keys + (curves + 1.0) * static_cast<double>(config.queries) * keys;
}

double exact_risk(const LabConfig& config) {
  return static_cast<double>(config.bandwidths.size()) * static_cast<double>(config.queries) * static_cast<double>(config.keys);
}

double selection(const SelectionConfig& config) {
  const auto train = static_cast<double>(config.train);
  const auto bandwidths = static_cast<double>(config.bandwidths.size());
  LabConfig audit;
  audit.bandwidths = config.bandwidths;
  return bandwidths * train * (train + static_cast<double>(config.validation + config.test)) + loo(train, 1.0, bandwidths) +
         3.0 * static_cast<double>(config.curve_points) * train + sweep(audit);
}

double standardize(const StandardizeConfig& config) {
  const auto keys = static_cast<double>(config.keys);
  return 2.0 * scores(static_cast<double>(config.queries) + keys, keys, 2.0);
}

}  // namespace kernel_lens::work
