// NumPy dtypes as gentt element types. A plain permutation moves bytes, so any dtype works by its
// item size (structured, void, string, datetime, bool, float128 ...). Conversion and scaling
// interpret values, so they need a dtype gentt names ("float32", "complex64", ...) in the
// machine's byte order. NumPy has no bfloat16, so gentt.permute cannot produce one.
#pragma once

#include <pybind11/numpy.h>

#include <cstdint>
#include <string>

namespace gentt::python {

namespace py = pybind11;

struct ElementType {
  std::int64_t bytes = 0;  // item size
  // The gentt dtype name when gentt can interpret the values (native byte order, a type of
  // <gentt/permute.h>); "" otherwise (moved as opaque bytes only). bool is opaque: gentt has no
  // bool type, and truth is not a byte pattern (2 is True too).
  std::string name;
};

ElementType element_type(const py::dtype& dt);

// The gentt name for generate()/explain(): the interpreted name, else "bytesN".
std::string generator_dtype_name(const py::dtype& dt);

}  // namespace gentt::python
