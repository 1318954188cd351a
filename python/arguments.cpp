#include "python/arguments.h"

#include <limits>

#include "gentt/error.h"

namespace gentt::python {

namespace {

// NPY_ITEM_REFCOUNT: the dtype holds Python references (object, or records with object fields).
// Read from the descriptor's flags: an attribute lookup would cost a noticeable part of a call.
bool holds_objects(const py::dtype& dt) { return (dt.flags() & 0x01) != 0; }

std::string type_name(py::handle value) { return py::str(py::type::handle_of(value).attr("__name__")); }

}  // namespace

std::int64_t int_arg(py::handle value, const std::string& arg) {
  // operator.index accepts Python and NumPy integers and rejects floats, as NumPy does for axes.
  PyObject* index = PyNumber_Index(value.ptr());
  if (index == nullptr) {
    PyErr_Clear();
    throw py::type_error(arg + ": must be an integer, got " + type_name(value));
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (overflow != 0) throw Error(arg, "integer " + text_of(value) + " does not fit in 64 bits");
  return v;
}

std::vector<std::int64_t> int_list(py::handle value, const std::string& arg) {
  if (!py::isinstance<py::sequence>(value) && !py::isinstance<py::array>(value))
    throw py::type_error(arg + ": must be a sequence of integers, got " + type_name(value));
  std::vector<std::int64_t> out;
  std::size_t i = 0;
  for (py::handle item : py::iter(value)) {
    out.push_back(int_arg(item, arg + "[" + std::to_string(i) + "]"));
    ++i;
  }
  return out;
}

std::vector<int> normalize_axes(py::handle axes, int rank, const std::string& arg) {
  std::vector<int> perm(static_cast<std::size_t>(rank));
  if (axes.is_none()) {
    for (int k = 0; k < rank; ++k) perm[static_cast<std::size_t>(k)] = rank - 1 - k;
    return perm;
  }
  const std::vector<std::int64_t> given = int_list(axes, arg);
  if (given.size() != perm.size())
    throw Error(arg, "has " + std::to_string(given.size()) + (given.size() == 1 ? " entry" : " entries") +
                         " but the array has " + std::to_string(rank) + (rank == 1 ? " axis" : " axes"));
  std::vector<bool> seen(perm.size(), false);
  for (std::size_t k = 0; k < given.size(); ++k) {
    const std::int64_t axis = given[k] < 0 ? given[k] + rank : given[k];
    if (axis < 0 || axis >= rank)
      throw Error(arg + "[" + std::to_string(k) + "]", "axis " + std::to_string(given[k]) +
                                                           " is out of range for " + std::to_string(rank) +
                                                           (rank == 1 ? " axis" : " axes"));
    if (seen[static_cast<std::size_t>(axis)])
      throw Error(arg, "axis " + std::to_string(axis) + " appears twice");
    seen[static_cast<std::size_t>(axis)] = true;
    perm[k] = static_cast<int>(axis);
  }
  return perm;
}

int threads_arg(py::handle value) {
  if (value.is_none()) return 1;
  const std::int64_t t = int_arg(value, "threads");
  // The runtime names the valid range; clamp only what would not fit in an int.
  if (t < std::numeric_limits<int>::min() || t > std::numeric_limits<int>::max())
    throw Error("threads", "must be 0 (every core) or a positive count, got " + std::to_string(t));
  return static_cast<int>(t);
}

std::complex<double> number_arg(py::handle value, const std::string& arg) {
  // Booleans are numbers to Python but almost certainly a mistake for a scale factor.
  if (PyBool_Check(value.ptr()) || !PyNumber_Check(value.ptr()) || PyUnicode_Check(value.ptr()))
    throw py::type_error(arg + ": must be a real or complex number, got " + type_name(value));
  const Py_complex c = PyComplex_AsCComplex(value.ptr());
  if (c.real == -1.0 && PyErr_Occurred()) {
    const bool overflow = PyErr_ExceptionMatches(PyExc_OverflowError);
    PyErr_Clear();
    if (overflow) throw py::value_error(arg + ": " + type_name(value) + " is too large to convert to a double");
    throw py::type_error(arg + ": must be a real or complex number, got " + type_name(value));
  }
  return {c.real, c.imag};
}

py::dtype dtype_arg(py::handle value, const std::string& arg) {
  py::dtype dt;
  try {
    dt = py::dtype::from_args(py::reinterpret_borrow<py::object>(value));
  } catch (py::error_already_set& e) {
    throw py::type_error(arg + ": " + text_of(value) + " is not a NumPy dtype (" + e.what() + ")");
  }
  if (holds_objects(dt))
    throw py::type_error(arg + ": dtype " + text_of(dt) +
                         " holds Python objects; gentt moves plain bytes only");
  return dt;
}

py::array array_arg(py::handle value, const std::string& arg) {
  py::array a;
  if (py::isinstance<py::array>(value)) {
    a = py::reinterpret_borrow<py::array>(value);
  } else {
    a = py::module_::import("numpy").attr("asarray")(value);
  }
  if (holds_objects(a.dtype()))
    throw py::type_error(arg + ": array of dtype " + text_of(a.dtype()) +
                         " holds Python objects; gentt moves plain bytes only (use np.transpose)");
  return a;
}

std::string text_of(py::handle value) { return py::str(value).cast<std::string>(); }

std::vector<std::int64_t> shape_of(const py::array& a) {
  return std::vector<std::int64_t>(a.shape(), a.shape() + a.ndim());
}

std::vector<std::int64_t> strides_of(const py::array& a) {
  return std::vector<std::int64_t>(a.strides(), a.strides() + a.ndim());
}

std::string tuple_text(const std::vector<std::int64_t>& values) {
  std::string s = "(";
  for (std::size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s + (values.size() == 1 ? ",)" : ")");
}

std::string tuple_text(const std::vector<int>& values) {
  return tuple_text(std::vector<std::int64_t>(values.begin(), values.end()));
}

}  // namespace gentt::python
