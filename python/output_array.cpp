#include "python/output_array.h"

#include <cstdint>

#include "gentt/error.h"
#include "python/arguments.h"

namespace gentt::python {

namespace {

struct ByteRange {
  std::intptr_t lo, hi;
};

ByteRange range_of(const py::array& a) {
  auto base = reinterpret_cast<std::intptr_t>(a.data());
  ByteRange r{base, base + static_cast<std::intptr_t>(a.itemsize())};
  for (py::ssize_t i = 0; i < a.ndim(); ++i) {
    const std::intptr_t reach = static_cast<std::intptr_t>(a.shape(i) - 1) * a.strides(i);
    (reach < 0 ? r.lo : r.hi) += reach;
  }
  return r;
}

}  // namespace

py::array checked_out(py::handle out, const std::vector<std::int64_t>& shape, const py::dtype& dtype,
                      const std::string& arg) {
  if (!py::isinstance<py::array>(out))
    throw py::type_error(arg + ": must be a NumPy array, got " +
                         text_of(py::type::handle_of(out).attr("__name__")));
  auto o = py::reinterpret_borrow<py::array>(out);
  if (!o.writeable()) throw Error(arg, "is read-only");
  if (shape_of(o) != shape)
    throw Error(arg, "has shape " + tuple_text(shape_of(o)) + " but the result has shape " + tuple_text(shape));
  if (!o.dtype().equal(dtype))
    throw Error(arg, "has dtype " + text_of(o.dtype()) + " but the result has dtype " +
                         text_of(dtype) + " (pass dtype= to convert)");
  return o;
}

py::array new_output(const py::dtype& dtype, const std::vector<std::int64_t>& shape) {
  const std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  py::ssize_t bytes = dtype.itemsize();
  for (auto n : dims) bytes *= n;
  constexpr py::ssize_t kAlignFrom = py::ssize_t{4} << 20, kLine = 64;
  if (bytes < kAlignFrom) return py::array(dtype, dims);
  py::array_t<std::uint8_t> buffer(bytes + kLine);
  auto* raw = static_cast<std::uint8_t*>(buffer.mutable_data());
  const auto skip = static_cast<py::ssize_t>((kLine - reinterpret_cast<std::uintptr_t>(raw) % kLine) % kLine);
  return py::array(dtype, dims, raw + skip, buffer);  // C-order strides
}

bool ranges_overlap(const py::array& a, const py::array& b) {
  if (a.size() == 0 || b.size() == 0) return false;
  const ByteRange x = range_of(a), y = range_of(b);
  return x.lo < y.hi && y.lo < x.hi;
}

bool shares_memory(const py::array& a, const py::array& b) {
  if (!ranges_overlap(a, b)) return false;
  // Only asked when the ranges intersect, with a bound on NumPy's work (exact, it is exponential
  // in the rank of as_strided views: 1.5 s at rank 18). Past the bound the answer is "not shown
  // to share": the callers then copy a (gentt.permute) or refuse interleaved ranges (Plan), as
  // NumPy's own copies do when unsure. Leaked on purpose: a static py::object would be destroyed
  // after the interpreter has gone.
  static py::object* np_shares_memory = new py::object(py::module_::import("numpy").attr("shares_memory"));
  try {
    return (*np_shares_memory)(a, b, py::arg("max_work") = 100000).cast<bool>();
  } catch (py::error_already_set& e) {
    static py::object* too_hard = new py::object(py::module_::import("numpy").attr("TooHardError"));
    if (!e.matches(*too_hard)) throw;
    return false;
  }
}

}  // namespace gentt::python
