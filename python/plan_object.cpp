#include "python/plan_object.h"

#include "gentt/error.h"
#include "python/arguments.h"
#include "python/move_layout.h"
#include "python/output_array.h"

namespace gentt::python {

namespace {

std::optional<std::vector<std::int64_t>> strides_arg(py::handle value, std::size_t rank, std::int64_t itemsize,
                                                     bool whole_elements, const std::string& arg) {
  if (value.is_none()) return std::nullopt;
  std::vector<std::int64_t> s = int_list(value, arg);
  if (s.size() != rank)
    throw Error(arg, "has " + std::to_string(s.size()) + (s.size() == 1 ? " entry" : " entries") + " but the problem has " + std::to_string(rank) +
                         " axes");
  if (whole_elements)
    for (std::size_t a = 0; a < rank; ++a)
      if (s[a] % itemsize != 0)
        throw Error(arg + "[" + std::to_string(a) + "]",
                    std::to_string(s[a]) + " bytes is not a multiple of the item size " + std::to_string(itemsize) +
                        "; conversion and scaling need whole elements");
  return s;
}

py::tuple to_tuple(const std::vector<std::int64_t>& v) {
  py::tuple t(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) t[i] = py::int_(v[i]);
  return t;
}

// Checks that `a` has the shape, dtype and byte strides (nullopt: C-contiguous) a plan expects.
void check_matches(const py::array& a, const std::vector<std::int64_t>& shape, const py::dtype& dtype,
                   const std::optional<std::vector<std::int64_t>>& strides, const std::string& arg) {
  if (shape_of(a) != shape)
    throw Error(arg, "has shape " + tuple_text(shape_of(a)) + " but the plan is for shape " + tuple_text(shape));
  if (!a.dtype().equal(dtype))
    throw Error(arg, "has dtype " + text_of(a.dtype()) + " but the plan is for dtype " +
                         text_of(dtype));
  const auto expected = strides ? *strides : contiguous_byte_strides(shape, static_cast<std::int64_t>(dtype.itemsize()));
  if (!same_layout(shape, strides_of(a), expected))
    throw Error(arg, "has strides " + tuple_text(strides_of(a)) + " but the plan is for strides " +
                         tuple_text(expected) + (strides ? "" : " (C-contiguous)") + " (bytes)");
}

}  // namespace

Plan::Plan(py::handle shape, py::handle axes, py::handle dtype, py::handle out_dtype, py::handle threads,
           py::handle alpha, py::handle beta, py::handle in_strides, py::handle out_strides) {
  shape_ = int_list(shape, "shape");
  for (std::size_t a = 0; a < shape_.size(); ++a) {
    if (shape_[a] < 0) throw Error("shape[" + std::to_string(a) + "]", "extent must be >= 0, got " + std::to_string(shape_[a]));
    empty_ |= shape_[a] == 0;
  }
  perm_ = normalize_axes(axes, static_cast<int>(shape_.size()), "axes");
  out_shape_.resize(perm_.size());
  for (std::size_t k = 0; k < perm_.size(); ++k) out_shape_[k] = shape_[static_cast<std::size_t>(perm_[k])];

  op_.in_dtype = dtype_arg(dtype, "dtype");
  op_.out_dtype = out_dtype.is_none() ? op_.in_dtype : dtype_arg(out_dtype, "out_dtype");
  op_.threads = threads_arg(threads);
  op_.alpha = number_arg(alpha, "alpha");
  op_.beta = number_arg(beta, "beta");
  check_interpretable(op_, "out_dtype");

  const bool whole = !op_.plain_move();
  const auto in_itemsize = static_cast<std::int64_t>(op_.in_dtype.itemsize());
  const auto out_itemsize = static_cast<std::int64_t>(op_.out_dtype.itemsize());
  in_bytes_ = strides_arg(in_strides, shape_.size(), in_itemsize, whole, "in_strides");
  out_bytes_ = strides_arg(out_strides, shape_.size(), out_itemsize, whole, "out_strides");

  if (empty_ || in_itemsize == 0) {
    empty_ = true;
    validate_empty(op_, perm_);
    return;
  }
  const MoveLayout layout = move_layout(in_itemsize, out_itemsize, shape_, perm_, in_bytes_, out_bytes_, whole);
  plan_ = plan_permute(make_desc(op_, layout, "in_strides", "out_strides"));
}

py::array Plan::execute(py::handle a_arg, py::handle out_arg) const {
  if (!py::isinstance<py::array>(a_arg))
    throw py::type_error("a: must be a NumPy array, got " +
                         text_of(py::type::handle_of(a_arg).attr("__name__")));
  const auto a = py::reinterpret_borrow<py::array>(a_arg);
  check_matches(a, shape_, op_.in_dtype, in_bytes_, "a");

  py::array out;
  if (out_arg.is_none()) {
    if (out_bytes_)
      throw Error("out", "the plan was made for out_strides " + tuple_text(*out_bytes_) + ": pass an out array with them");
    if (op_.beta != std::complex<double>(0.0, 0.0))
      throw Error("out", "the plan's beta is not 0, so the result reads out: pass out=");
    out = new_output(op_.out_dtype, out_shape_);
  } else {
    out = checked_out(out_arg, out_shape_, op_.out_dtype, "out");
    check_matches(out, out_shape_, op_.out_dtype, out_bytes_, "out");
    if (shares_memory(a, out)) throw Error("out", "shares memory with a (np.shares_memory); use another array");
    // Interleaved views (a[::2], out over a[1::2]'s memory): gentt.permute moves a copy of a; a
    // plan is made for a's strides, so it cannot.
    if (ranges_overlap(a, out))
      throw Error("out", "lies within a's byte range (interleaved views): a Plan does not copy a as gentt.permute "
                         "does; pass arrays whose memory does not interleave");
  }
  if (empty_) return out;

  const void* in_ptr = a.data();
  void* out_ptr = out.mutable_data();
  {
    py::gil_scoped_release release;
    plan_.execute(in_ptr, out_ptr);
  }
  return out;
}

std::string Plan::describe() const {
  return empty_ ? "empty problem (an extent is 0): nothing to move\n" : plan_.describe();
}

std::string Plan::isa() const { return empty_ ? "none" : plan_.isa(); }

py::tuple Plan::shape() const { return to_tuple(shape_); }
py::tuple Plan::axes() const { return to_tuple(std::vector<std::int64_t>(perm_.begin(), perm_.end())); }
py::tuple Plan::out_shape() const { return to_tuple(out_shape_); }

std::string Plan::repr() const {
  std::string s = "gentt.Plan(shape=" + tuple_text(shape_) + ", axes=" + tuple_text(perm_) +
                  ", dtype=" + text_of(op_.in_dtype);
  if (!op_.out_dtype.equal(op_.in_dtype)) s += ", out_dtype=" + text_of(op_.out_dtype);
  return s + ", isa='" + isa() + "')";
}

}  // namespace gentt::python
