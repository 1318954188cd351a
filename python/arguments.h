// Python arguments -> C++ values, with the errors the module promises: TypeError when an argument
// is of a kind gentt cannot take (not an integer, not an array, an object dtype), ValueError
// (gentt::Error, mapped by gentt_module.cpp) when it is the right kind but a wrong value. Every
// message starts with the argument's name.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace gentt::python {

namespace py = pybind11;

// NumPy axes for an array of `rank` axes: None -> reversed (as np.transpose); negative axes
// count from the end. Errors name `arg` ("axes", "axes[2]").
std::vector<int> normalize_axes(py::handle axes, int rank, const std::string& arg);

// A sequence of integers (a shape or strides).
std::vector<std::int64_t> int_list(py::handle value, const std::string& arg);

// An integer (operator.index: Python and NumPy integers).
std::int64_t int_arg(py::handle value, const std::string& arg);

// threads: None -> 1 (one thread, NumPy's behaviour); 0 -> every core; else 1..1024 (the
// runtime checks the range).
int threads_arg(py::handle value);

// A real or complex number (alpha, beta).
std::complex<double> number_arg(py::handle value, const std::string& arg);

// np.dtype(value); TypeError for what NumPy does not take as a dtype, and for object dtypes
// (they hold Python references, which cannot be moved as bytes).
py::dtype dtype_arg(py::handle value, const std::string& arg);

// `value` as an ndarray (np.asarray for other array-likes); TypeError for object arrays.
py::array array_arg(py::handle value, const std::string& arg);

// The array's shape and strides (bytes) as vectors.
std::vector<std::int64_t> shape_of(const py::array& a);
std::vector<std::int64_t> strides_of(const py::array& a);

// str(value), for messages.
std::string text_of(py::handle value);

// "(2, 3, 4)" for messages.
std::string tuple_text(const std::vector<std::int64_t>& values);
std::string tuple_text(const std::vector<int>& values);

}  // namespace gentt::python
