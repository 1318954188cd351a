#include "python/source_generation.h"

#include <pybind11/numpy.h>

#include "backends/backend.h"
#include "generator/field_parsers.h"
#include "gentt/error.h"
#include "ir/error.h"
#include "ir/explain.h"
#include "ir/pipeline.h"
#include "ir/stream.h"
#include "python/arguments.h"
#include "python/element_type.h"

namespace gentt::python {

namespace {

std::string join(const std::vector<std::int64_t>& v) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s;
}

// A NumPy dtype as a generator element type: its name, else bytesN.
Dtype sized(const py::dtype& dt) {
  if (auto d = parse_dtype(generator_dtype_name(dt))) return *d;
  throw Error("dtype", text_of(dt) + " has " + std::to_string(dt.itemsize()) +
                           " bytes per element; generated kernels take 1.." + std::to_string(kMaxElemBytes));
}

// A gentt name as given, else NumPy's dtype (np.float32, "f4", a record dtype) by its size.
Dtype dtype_of(py::handle value) {
  if (py::isinstance<py::str>(value)) {
    if (auto named = parse_dtype(value.cast<std::string>())) return *named;
    py::dtype dt;
    try {
      dt = py::dtype::from_args(py::reinterpret_borrow<py::object>(value));
    } catch (const py::error_already_set&) {
      return parse_dtype_field(value.cast<std::string>(), "dtype");  // throws, listing the names
    }
    return sized(dt);
  }
  return sized(dtype_arg(value, "dtype"));
}

// The pipeline reports fields as JSON pointers into a problem ("/perm/1"); say it in the
// Python arguments' names ("axes[1]").
std::string python_field(std::string field) {
  if (field.starts_with("/perm")) field = "axes" + field.substr(5);
  else if (field.starts_with("/shape")) field = "shape" + field.substr(6);
  std::string out;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '/') {
      out += field[i];
      continue;
    }
    std::size_t j = i + 1;
    while (j < field.size() && field[j] != '/') ++j;
    out += "[" + field.substr(i + 1, j - i - 1) + "]";
    i = j - 1;
  }
  return out;
}

// Runs `body`, rethrowing the pipeline's UserError as gentt::Error (ValueError) with the field
// in the Python arguments' names.
template <typename F>
auto in_python_terms(F&& body) {
  try {
    return body();
  } catch (const UserError& e) {
    std::string_view problem = e.what();
    if (!e.field().empty()) problem.remove_prefix(e.field().size() + 2);
    throw Error(python_field(e.field()), std::string(problem));
  }
}

Problem make_problem(const SourceProblem& in) {
  Problem p;
  p.shape = int_list(in.shape, "shape");
  for (std::size_t a = 0; a < p.shape.size(); ++a)
    if (p.shape[a] < 1) throw Error("shape[" + std::to_string(a) + "]", "extent must be >= 1, got " + std::to_string(p.shape[a]));
  p.perm = normalize_axes(in.axes, static_cast<int>(p.shape.size()), "axes");
  p.dtype = dtype_of(in.dtype);
  if (!py::isinstance<py::str>(in.isa)) throw py::type_error("isa: must be a string such as \"avx512\"");
  p.target.isa = parse_isa_field(in.isa.cast<std::string>(), "isa");
  if (!in.vector_bits.is_none()) p.target.vector_bits = static_cast<int>(int_arg(in.vector_bits, "vector_bits"));
  p.target.vector_bits = resolve_vector_bits(p.target, in.vector_bits.is_none() ? "isa" : "vector_bits");
  if (!in.tune.is_none()) {
    if (!py::isinstance<py::str>(in.tune)) throw py::type_error("tune: must be \"generic\" or \"znver4\"");
    p.target.tune = parse_tune_field(in.tune.cast<std::string>(), "tune");
    check_tune(p.target, !in.vector_bits.is_none(), "tune");
  }
  validate_problem_shape(p.shape, p.perm, p.dtype.bytes, "");
  p.threads = in.threads.cast<bool>();
  if (!py::isinstance<py::str>(in.stores)) throw py::type_error("stores: must be \"auto\", \"streaming\" or \"cached\"");
  p.stores = parse_stores_field(in.stores.cast<std::string>(), "stores");
  check_store_mode(p.target, p.stores, "stores");
  if (in.name.is_none()) {
    p.name = default_kernel_name(p);
  } else {
    if (!py::isinstance<py::str>(in.name)) throw py::type_error("name: must be a string (a C identifier)");
    p.name = in.name.cast<std::string>();
    check_kernel_name(p.name, "name");
  }
  return p;
}

// The gentt-gen command that writes the same file, recorded in its banner.
std::string regenerate_command(const Problem& p) {
  std::string perm;
  for (std::size_t k = 0; k < p.perm.size(); ++k) perm += (k ? "," : "") + std::to_string(p.perm[k]);
  // A tuned target chooses its width: the command names the tuning instead of a width.
  const std::string width = p.target.tune != Tune::generic ? " --tune " + std::string(tune_name(p.target.tune))
                                                             : " --vector-bits " + std::to_string(p.target.vector_bits);
  std::string c = "gentt-gen generate --shape " + join(p.shape) + " --perm " + perm + " --dtype " + p.dtype.name +
                  " --isa " + std::string(isa_name(p.target.isa)) + width + " --name " + p.name;
  if (!p.threads) c += " --no-threads";
  if (p.stores != StoreMode::automatic) c += " --stores " + std::string(store_mode_name(p.stores));
  return c + " -o " + p.name + ".cpp";
}

KernelUnit lower(const Problem& p) {
  Lowered lowered = run_pipeline(p);
  Problem tuned = p;
  tuned.target = lowered.target;
  return KernelUnit{std::move(tuned), std::move(lowered.plan), std::move(lowered.kernel),
                    std::move(lowered.stream_kernel), std::move(lowered.unbanded_stream_kernel)};
}

}  // namespace

std::string generate_source(const SourceProblem& in) {
  return in_python_terms([&] {
    const Problem p = make_problem(in);
    backend_for(p.target.isa, "isa");
    return emit_file({lower(p)}, regenerate_command(p));
  });
}

std::string explain_problem(const SourceProblem& in) {
  return in_python_terms([&] {
    const KernelUnit unit = lower(make_problem(in));
    return explain(unit.problem, unit.plan, unit.kernel);
  });
}

}  // namespace gentt::python
