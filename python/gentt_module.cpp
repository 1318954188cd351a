// The Python module `gentt` (docs/python.md): bindings only. The work is in permute_call.cpp
// (gentt.permute), plan_object.cpp (gentt.Plan) and source_generation.cpp (generate, explain).
//
// Errors: gentt::Error (runtime arguments) and gentt::UserError (generator inputs) become
// ValueError with the message unchanged; the helpers raise TypeError themselves for arguments of
// a kind gentt cannot take. Nothing is written to `out` when an error is raised.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "gentt/error.h"
#include "gentt/permute.h"
#include "ir/error.h"
#include "python/permute_call.h"
#include "python/plan_object.h"
#include "python/source_generation.h"

namespace py = pybind11;
using gentt::python::Plan;

namespace {

constexpr const char* kPermuteDoc = R"doc(permute(a, axes=None, out=None, dtype=None, threads=None, alpha=1, beta=0)

Returns np.ascontiguousarray(np.transpose(a, axes)).astype(dtype), bit for bit.

a        any NumPy array (or array-like): any dtype but object, any strides (views, negative
         and zero strides). Elements are moved as bytes unless dtype/alpha/beta ask otherwise.
axes     NumPy axes (None: reversed; negative axes count from the end).
out      optional writeable array of the permuted shape and the result dtype, any layout; it
         is filled and returned. It must not share memory with a.
dtype    result dtype (None: a.dtype). A different dtype converts on the fly (numeric dtypes
         in native byte order; NumPy has no bfloat16).
threads  None: 1 thread (like NumPy); 0: every core; n: up to n threads.
alpha, beta  out = alpha * permute(a) + beta * out for float and complex results (beta != 0
         needs out).

Raises ValueError or TypeError naming the argument; nothing is written then.)doc";

constexpr const char* kPlanDoc = R"doc(Plan(shape, axes, dtype, out_dtype=None, threads=1, alpha=1, beta=0, in_strides=None, out_strides=None)

A permutation planned once and executed many times on arrays of exactly this shape, dtype and
layout. in_strides / out_strides are NumPy byte strides (out_strides per output axis, like
out.strides); None means C-contiguous.

execute(a, out=None) -> out   checks a (and out) against the plan: ValueError on any mismatch.
describe() -> str             what was planned (canonical problem, engine, block, threads).
isa                           the ISA the plan runs on ("avx512", "scalar", ...).)doc";

constexpr const char* kGenerateDoc = R"doc(generate(shape, axes, dtype, isa, name=None, vector_bits=None, threads=True, stores="auto", tune=None) -> str

The C++ source of a generated kernel, as `gentt-gen generate --shape ... -o FILE.cpp` writes it.
dtype: a gentt dtype name ("float32", "bfloat16", "bytes12") or a NumPy dtype (records are
"bytesN"). isa: "scalar", "avx2", "avx512", "avx512skx", "neon", "sve", "sve2" or "sunway".
tune: None (generic) or "znver4" (avx512 levels, without vector_bits: zmm or ymm blocks for
AMD Zen 4, as the spec field "tune").)doc";

constexpr const char* kExplainDoc = R"doc(explain(shape, axes, dtype, isa, vector_bits=None, tune=None) -> str

The canonical problem, the chosen register block and why, as `gentt-gen explain` prints it.)doc";

gentt::python::SourceProblem source_problem(py::object shape, py::object axes, py::object dtype, py::object isa,
                                            py::object name, py::object vector_bits, py::object threads,
                                            py::object stores, py::object tune) {
  return {std::move(shape), std::move(axes),        std::move(dtype),   std::move(isa),  std::move(name),
          std::move(vector_bits), std::move(threads), std::move(stores), std::move(tune)};
}

}  // namespace

PYBIND11_MODULE(gentt, m) {
  m.doc() = "gentt: tensor permutation (NumPy transpose semantics) with generated SIMD kernels";
  m.attr("__version__") = GENTT_VERSION;

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const gentt::Error& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const gentt::UserError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });

  m.def("permute", &gentt::python::permute, kPermuteDoc, py::arg("a"), py::arg("axes") = py::none(),
        py::arg("out") = py::none(), py::arg("dtype") = py::none(), py::arg("threads") = py::none(),
        py::arg("alpha") = 1, py::arg("beta") = 0);

  py::class_<Plan>(m, "Plan", kPlanDoc)
      .def(py::init([](py::object shape, py::object axes, py::object dtype, py::object out_dtype, py::object threads,
                       py::object alpha, py::object beta, py::object in_strides, py::object out_strides) {
             return Plan(shape, axes, dtype, out_dtype, threads, alpha, beta, in_strides, out_strides);
           }),
           py::arg("shape"), py::arg("axes"), py::arg("dtype"), py::arg("out_dtype") = py::none(),
           py::arg("threads") = 1, py::arg("alpha") = 1, py::arg("beta") = 0, py::arg("in_strides") = py::none(),
           py::arg("out_strides") = py::none())
      .def("execute", &Plan::execute, "Permutes a into out (allocated when None) and returns out.", py::arg("a"),
           py::arg("out") = py::none())
      .def("describe", &Plan::describe, "What was planned: canonical problem, engine, block, threads.")
      .def_property_readonly("isa", &Plan::isa, "The ISA the plan runs on.")
      .def_property_readonly("shape", &Plan::shape)
      .def_property_readonly("axes", &Plan::axes)
      .def_property_readonly("out_shape", &Plan::out_shape)
      .def_property_readonly("dtype", &Plan::dtype)
      .def_property_readonly("out_dtype", &Plan::out_dtype)
      .def("__repr__", &Plan::repr);

  m.def(
      "generate",
      [](py::object shape, py::object axes, py::object dtype, py::object isa, py::object name, py::object vector_bits,
         py::object threads, py::object stores, py::object tune) {
        return gentt::python::generate_source(
            source_problem(shape, axes, dtype, isa, name, vector_bits, threads, stores, tune));
      },
      kGenerateDoc, py::kw_only(), py::arg("shape"), py::arg("axes"), py::arg("dtype"), py::arg("isa"),
      py::arg("name") = py::none(), py::arg("vector_bits") = py::none(), py::arg("threads") = true,
      py::arg("stores") = "auto", py::arg("tune") = py::none());
  m.def(
      "explain",
      [](py::object shape, py::object axes, py::object dtype, py::object isa, py::object vector_bits, py::object tune) {
        return gentt::python::explain_problem(
            source_problem(shape, axes, dtype, isa, py::none(), vector_bits, py::bool_(true), py::str("auto"), tune));
      },
      kExplainDoc, py::kw_only(), py::arg("shape"), py::arg("axes"), py::arg("dtype"), py::arg("isa"),
      py::arg("vector_bits") = py::none(), py::arg("tune") = py::none());

  m.def("hardware_threads", &gentt::hardware_threads, "The number of cores threads=0 uses.");
}
