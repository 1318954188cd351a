#include "python/element_type.h"

namespace gentt::python {

ElementType element_type(const py::dtype& dt) {
  ElementType e;
  e.bytes = static_cast<std::int64_t>(dt.itemsize());
  const bool native = dt.attr("isnative").cast<bool>();
  // Structured and subarray dtypes are records, not numbers.
  if (!native || dt.has_fields() || !dt.attr("subdtype").is_none()) return e;
  const std::string bits = std::to_string(e.bytes * 8);
  switch (dt.kind()) {
    case 'i':
      if (e.bytes <= 8) e.name = "int" + bits;
      break;
    case 'u':
      if (e.bytes <= 8) e.name = "uint" + bits;
      break;
    case 'f':
      // float128 (x87 long double) has no gentt type.
      if (e.bytes == 2 || e.bytes == 4 || e.bytes == 8) e.name = "float" + bits;
      break;
    case 'c':
      if (e.bytes == 8 || e.bytes == 16) e.name = "complex" + bits;
      break;
    default:
      break;
  }
  return e;
}

std::string generator_dtype_name(const py::dtype& dt) {
  const ElementType e = element_type(dt);
  return e.name.empty() ? "bytes" + std::to_string(e.bytes) : e.name;
}

}  // namespace gentt::python
