#include "kernel_lens/interpolation.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernel_lens/limits.hpp"

namespace kernel_lens {
namespace {

/// At least one point, finite, nondecreasing; the messages name the argument.
void check_abscissae(const VectorRef& xp, const char* name) {
  if (xp.size() == 0) throw std::invalid_argument(std::string(name) + " must hold at least one point");
  check_size(static_cast<std::size_t>(xp.size()), Limits::max_rows, name);
  check_finite(xp, name);
  for (Eigen::Index j = 1; j < xp.size(); ++j) {
    if (xp(j) < xp(j - 1))
      throw std::invalid_argument(std::string(name) + " must be nondecreasing, but " + name + "[" +
                                  std::to_string(j) + "] = " + format_number(xp(j)) + " < " + name + "[" +
                                  std::to_string(j - 1) + "] = " + format_number(xp(j - 1)));
  }
}

}  // namespace

Vector interp(const VectorRef& x, const VectorRef& xp, const VectorRef& fp) {
  check_abscissae(xp, "xp");
  if (xp.size() != fp.size())
    throw std::invalid_argument("xp and fp must have the same length, got " + std::to_string(xp.size()) + " and " +
                                std::to_string(fp.size()));
  check_size(static_cast<std::size_t>(x.size()), Limits::max_rows, "x");
  check_finite(x, "x");
  check_finite(fp, "fp");
  const Eigen::Index last = xp.size() - 1;
  Vector out(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double at = x(i);
    if (at < xp(0)) {
      out(i) = fp(0);
    } else if (at >= xp(last)) {
      out(i) = fp(last);
    } else {
      /// j = the last index with xp[j] <= at, so xp[j] <= at < xp[j+1].
      const auto j = static_cast<Eigen::Index>(std::upper_bound(xp.data(), xp.data() + xp.size(), at) - xp.data()) - 1;
      const double slope = (fp(j + 1) - fp(j)) / (xp(j + 1) - xp(j));
      out(i) = slope * (at - xp(j)) + fp(j);
    }
  }
  return out;
}

Vector sorted_key_position(const VectorRef& queries, const VectorRef& keys) {
  check_abscissae(keys, "keys");
  const Vector positions = Vector::LinSpaced(keys.size(), 0.0, static_cast<double>(keys.size() - 1));
  return interp(queries, keys, positions);
}

}  // namespace kernel_lens
