#include "python/permute_desc.h"

#include <stdexcept>

#include "gentt/error.h"
#include "python/arguments.h"
#include "python/element_type.h"

namespace gentt::python {

bool Operation::plain_move() const {
  return in_dtype.equal(out_dtype) && alpha == std::complex<double>(1.0, 0.0) &&
         beta == std::complex<double>(0.0, 0.0);
}

void check_interpretable(const Operation& op, const std::string& out_arg) {
  if (op.plain_move()) return;
  const char* what = op.in_dtype.equal(op.out_dtype) ? "scaling (alpha, beta)" : "conversion";
  for (const auto& [dt, arg] : {std::pair{op.in_dtype, std::string("a")}, std::pair{op.out_dtype, out_arg}})
    if (element_type(dt).name.empty())
      throw py::type_error(arg + ": " + what + " needs a numeric dtype in native byte order (int8..uint64, "
                           "float16/32/64, complex64/128); " + text_of(dt) +
                           " is moved as opaque bytes only (bool, records, strings, float128 "
                           "included)");
}

PermuteDesc make_desc(const Operation& op, const MoveLayout& layout, const std::string& in_arg,
                      const std::string& out_arg) {
  PermuteDesc d;
  d.shape = layout.shape;
  d.perm = layout.perm;
  d.in_strides = layout.in_strides;
  d.out_strides = layout.out_strides;
  d.threads = op.threads;
  if (op.plain_move()) {
    d.elem_bytes = layout.unit_bytes;
    return d;
  }
  check_interpretable(op, out_arg);
  const std::int64_t itemsize = static_cast<std::int64_t>(op.in_dtype.itemsize());
  // Callers copy or reject views whose strides are not whole elements (strides_divisible).
  if (layout.unit_bytes != itemsize)
    throw std::logic_error("gentt module internal error: " + in_arg + " -> " + out_arg +
                           ": conversion over a split element layout");
  d.dtype = element_type(op.in_dtype).name;
  const std::string out_name = element_type(op.out_dtype).name;
  if (out_name != d.dtype) d.out_dtype = out_name;
  d.alpha = op.alpha;
  d.beta = op.beta;
  return d;
}

void validate_empty(const Operation& op, const std::vector<int>& perm) {
  const std::vector<std::int64_t> ones(perm.size(), 1);
  MoveLayout layout;
  layout.unit_bytes = static_cast<std::int64_t>(op.in_dtype.itemsize());
  layout.shape = ones;
  layout.perm = perm;
  if (layout.unit_bytes < 1 || layout.unit_bytes > 4096) layout.unit_bytes = 1;  // moves nothing anyway
  plan_permute(make_desc(op, layout, "a", "dtype"));
}

}  // namespace gentt::python
