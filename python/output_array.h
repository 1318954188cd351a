// Checks on a caller's `out` array and on overlap between arrays, shared by gentt.permute and
// Plan.execute. Each throws before anything is written.
#pragma once

#include <pybind11/numpy.h>

#include <cstdint>
#include <string>
#include <vector>

namespace gentt::python {

namespace py = pybind11;

// `out` must be an ndarray (TypeError), writeable, of `shape` and of dtype `dtype` (ValueError).
py::array checked_out(py::handle out, const std::vector<std::int64_t>& shape, const py::dtype& dtype,
                      const std::string& arg);

// A new C-contiguous result array. From 4 MiB on its data starts on a 64-byte cache line (a
// view of a slightly larger byte buffer, its `base`): NumPy's own large arrays start 16 bytes
// into a line, which keeps the run-time library from its streaming stores.
py::array new_output(const py::dtype& dtype, const std::vector<std::int64_t>& shape);

// Whether the byte ranges the two views span intersect (a cheap test; views whose ranges
// interleave without sharing an element also count).
bool ranges_overlap(const py::array& a, const py::array& b);

// np.shares_memory(a, b): whether some byte belongs to both (exact up to a bound on NumPy's work;
// false past it, so callers must still copy or refuse interleaved byte ranges).
bool shares_memory(const py::array& a, const py::array& b);

}  // namespace gentt::python
