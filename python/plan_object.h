// gentt.Plan: a permutation planned once for arrays of one shape, dtype and layout, executed
// many times. Plan.execute checks that each array matches what was planned (ValueError naming
// the difference), so a plan is never run over memory it was not made for.
#pragma once

#include <pybind11/numpy.h>

#include <optional>
#include <string>
#include <vector>

#include "gentt/permute.h"
#include "python/permute_desc.h"

namespace gentt::python {

namespace py = pybind11;

class Plan {
 public:
  // shape: input shape (extents >= 0); axes: as gentt.permute; dtype/out_dtype: NumPy dtypes
  // (out_dtype None = dtype); in_strides/out_strides: NumPy byte strides (out_strides per
  // output axis), None = C-contiguous.
  Plan(py::handle shape, py::handle axes, py::handle dtype, py::handle out_dtype, py::handle threads,
       py::handle alpha, py::handle beta, py::handle in_strides, py::handle out_strides);

  // Permutes `a` into `out` (allocated C-contiguous when None) and returns out.
  py::array execute(py::handle a, py::handle out) const;

  std::string describe() const;
  std::string isa() const;
  py::tuple shape() const;
  py::tuple axes() const;
  py::tuple out_shape() const;
  py::dtype dtype() const { return op_.in_dtype; }
  py::dtype out_dtype() const { return op_.out_dtype; }
  std::string repr() const;

 private:
  std::vector<std::int64_t> shape_, out_shape_;
  std::vector<int> perm_;
  Operation op_;
  std::optional<std::vector<std::int64_t>> in_bytes_, out_bytes_;  // None: C-contiguous
  bool empty_ = false;  // an extent is 0: nothing to move
  PermutePlan plan_;
};

}  // namespace gentt::python
