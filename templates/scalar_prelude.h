// gentt scalar prelude: portable C++ (no intrinsics) that executes the IR's three operations.
// Embedded verbatim into every generated scalar kernel file; also compiled on its own in the
// gentt build (templates/compile_check.cpp) so it always stays valid C++.
//
// Registers are arrays of V elements; element types are opaque bit containers (unsigned
// integers or byte arrays), so every bit pattern is moved unchanged.
#ifndef GENTT_SCALAR_PRELUDE_H
#define GENTT_SCALAR_PRELUDE_H

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace gentt_scalar {

// r[0..count) = p[0..count): a (masked) vector load of `count` contiguous elements.
template <class T>
inline void load(T* r, const T* p, int count) {
  std::memcpy(r, p, sizeof(T) * static_cast<std::size_t>(count));
}

// out[l] = concat(a, b)[index[l]] for l < V: the IR's two-source shuffle. Don't-care lanes
// are emitted as index 0.
template <int V, class T>
inline void shuffle2(T* r, const T* a, const T* b, const std::int8_t* index) {
  for (int l = 0; l < V; ++l) r[l] = index[l] < V ? a[index[l]] : b[index[l] - V];
}

// out[l] = a[index[l]]: the one-source form.
template <int V, class T>
inline void shuffle1(T* r, const T* a, const std::int8_t* index) {
  for (int l = 0; l < V; ++l) r[l] = a[index[l]];
}

// p[0..count) = r[0..count): a (masked) vector store.
template <class T>
inline void store(T* p, const T* r, int count) {
  std::memcpy(p, r, sizeof(T) * static_cast<std::size_t>(count));
}

}  // namespace gentt_scalar

#endif  // GENTT_SCALAR_PRELUDE_H
