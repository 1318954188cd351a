#include "python/permute_call.h"

#include <optional>

#include "gentt/error.h"
#include "gentt/permute.h"
#include "python/arguments.h"
#include "python/move_layout.h"
#include "python/output_array.h"
#include "python/permute_desc.h"

namespace gentt::python {

namespace {

// A C-ordered copy of a (np.array(a, order="C")).
py::array contiguous_copy(const py::array& a) {
  return py::module_::import("numpy").attr("array")(a, py::arg("order") = "C");
}

std::optional<std::vector<std::int64_t>> strides_unless_contiguous(const py::array& a) {
  if (a.flags() & py::array::c_style) return std::nullopt;
  return strides_of(a);
}

}  // namespace

py::array permute(py::handle a_arg, py::handle axes, py::handle out_arg, py::handle dtype, py::handle threads,
                  py::handle alpha, py::handle beta) {
  py::array a = array_arg(a_arg, "a");
  const std::vector<int> perm = normalize_axes(axes, static_cast<int>(a.ndim()), "axes");
  const std::vector<std::int64_t> shape = shape_of(a);
  std::vector<std::int64_t> out_shape(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) out_shape[k] = shape[static_cast<std::size_t>(perm[k])];

  Operation op;
  op.in_dtype = a.dtype();
  op.out_dtype = dtype.is_none() ? a.dtype() : dtype_arg(dtype, "dtype");
  op.threads = threads_arg(threads);
  op.alpha = number_arg(alpha, "alpha");
  op.beta = number_arg(beta, "beta");
  check_interpretable(op, "dtype");

  py::array out;
  if (out_arg.is_none()) {
    if (op.beta != std::complex<double>(0.0, 0.0))
      throw Error("beta", "is not 0, so the result reads out (alpha*permute(a) + beta*out): pass out=");
    out = new_output(op.out_dtype, out_shape);
  } else {
    out = checked_out(out_arg, out_shape, op.out_dtype, "out");
    if (shares_memory(a, out)) throw Error("out", "shares memory with a (np.shares_memory); use another array");
  }

  const std::int64_t in_itemsize = static_cast<std::int64_t>(op.in_dtype.itemsize());
  const std::int64_t out_itemsize = static_cast<std::int64_t>(op.out_dtype.itemsize());
  if (a.size() == 0 || in_itemsize == 0) {
    validate_empty(op, perm);  // the same argument errors as a non-empty call, nothing to move
    return out;
  }
  // Views that interleave with out without sharing a byte (a[::2] and out over a[1::2]'s
  // memory): the runtime's overlap check is by address range, so move a copy.
  if (ranges_overlap(a, out)) a = contiguous_copy(a);

  const bool whole = !op.plain_move();
  if (whole && !strides_divisible(shape, strides_of(a), in_itemsize)) a = contiguous_copy(a);
  if (whole && !strides_divisible(out_shape, strides_of(out), out_itemsize))
    throw Error("out", "has strides " + tuple_text(strides_of(out)) + " that are not multiples of its item size " +
                           std::to_string(out_itemsize) + "; conversion and scaling need whole elements");

  const MoveLayout layout = move_layout(in_itemsize, out_itemsize, shape, perm, strides_unless_contiguous(a),
                                        strides_unless_contiguous(out), whole);
  const PermuteDesc desc = make_desc(op, layout, "a", "out");
  const void* in_ptr = a.data();
  void* out_ptr = out.mutable_data();
  try {
    // The arrays stay referenced by this frame; other Python threads may run meanwhile.
    py::gil_scoped_release release;
    gentt::permute(in_ptr, out_ptr, desc);
  } catch (const Error& e) {
    // out's layout, checked by the runtime as out_strides (elements): name the argument here.
    if (e.argument() != "out_strides") throw;
    const std::string what = e.what();
    const std::size_t at = what.find("may let");
    throw Error("out", "its strides " + tuple_text(strides_of(out)) + " " +
                           (at == std::string::npos ? what : what.substr(at)));
  }
  return out;
}

}  // namespace gentt::python
