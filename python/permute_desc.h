// One permutation as the runtime's PermuteDesc: what is moved (the unit and views of
// move_layout.h), the conversion between NumPy dtypes and the scaling, the threads.
#pragma once

#include <pybind11/numpy.h>

#include <complex>
#include <string>

#include "gentt/permute.h"
#include "python/move_layout.h"

namespace gentt::python {

namespace py = pybind11;

struct Operation {
  py::dtype in_dtype;
  py::dtype out_dtype;
  std::complex<double> alpha{1.0, 0.0};
  std::complex<double> beta{0.0, 0.0};
  int threads = 1;

  // Same dtype, alpha 1, beta 0: bytes are moved and never interpreted.
  bool plain_move() const;
};

// Throws TypeError when the operation interprets values (conversion or scaling) of a dtype gentt
// does not name (element_type.h); `out_arg` names the argument that chose the output dtype.
void check_interpretable(const Operation& op, const std::string& out_arg);

// The descriptor for op over layout. For conversion and scaling the layout must move whole
// elements: callers check strides_divisible first. in_arg/out_arg name the arrays in errors.
PermuteDesc make_desc(const Operation& op, const MoveLayout& layout, const std::string& in_arg,
                      const std::string& out_arg);

// Validates op for a problem of `rank` axes and permutation `perm` without moving anything:
// what a call on an empty array (an extent 0) still owes its caller.
void validate_empty(const Operation& op, const std::vector<int>& perm);

}  // namespace gentt::python
