// gentt.permute(a, axes=None, out=None, dtype=None, threads=None, alpha=1, beta=0):
// np.ascontiguousarray(np.transpose(a, axes)).astype(dtype), bit for bit, into a new array or
// into `out` (any writeable layout of the permuted shape and the result dtype).
#pragma once

#include <pybind11/numpy.h>

namespace gentt::python {

namespace py = pybind11;

py::array permute(py::handle a, py::handle axes, py::handle out, py::handle dtype, py::handle threads,
                  py::handle alpha, py::handle beta);

}  // namespace gentt::python
