// gentt.generate / gentt.explain: the generator pipeline (ir/, backends/) for one problem, as
// `gentt-gen generate --shape ... -o FILE` and `gentt-gen explain` do, returning text.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace gentt::python {

namespace py = pybind11;

// The problem arguments of both functions. dtype: a gentt dtype name ("float32", "bfloat16",
// "bytes12") or anything np.dtype takes (moved by size: records become "bytesN").
struct SourceProblem {
  py::object shape, axes, dtype, isa, name, vector_bits, threads, stores, tune;
};

// The generated C++ source of one kernel (the file `gentt-gen generate` writes).
std::string generate_source(const SourceProblem& p);
// The canonical problem, the chosen block and the reasons (`gentt-gen explain`).
std::string explain_problem(const SourceProblem& p);

}  // namespace gentt::python
