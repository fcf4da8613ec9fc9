#pragma once
/// Shared matrix types. Row-major, because every array that crosses into JavaScript is row-major.
#include <Eigen/Core>

namespace kernel_lens {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXd;
using MatrixRef = Eigen::Ref<const RowMatrix>;
using VectorRef = Eigen::Ref<const Vector>;
/// One contiguous row (of a RowMatrix or a plain row vector), read-only and writable.
using RowVectorRef = Eigen::Ref<const Eigen::RowVectorXd>;
using RowVectorOut = Eigen::Ref<Eigen::RowVectorXd>;

}  // namespace kernel_lens
