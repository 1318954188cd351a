// A validated permutation problem: what to move (element size, shape, NumPy axes) and for
// which target (ISA, vector bits). Produced by the spec parser, consumed by the planner.
//
// Semantics (NumPy): out = np.ascontiguousarray(np.transpose(in, perm)), both C order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gentt {

// sve targets SVE (version 1); sve2 the same fixed-length SVE kernels using SVE2's two-register
// table lookup (svtbl2). Both take vector_bits 128..2048. avx512 kernels use AVX-512
// F/BW/VL/VBMI; avx512skx ones the same without VBMI (Skylake-SP, Cascade Lake, Cooper Lake):
// byte shuffles as word permutes and in-lane byte shuffles. The features of each ISA:
// ir/target_features.h.
enum class Isa { scalar, avx2, avx512, neon, sve, sve2, sunway, avx512skx };

// Every ISA name the spec accepts, in documentation order.
const std::vector<Isa>& all_isas();
std::string_view isa_name(Isa isa);
std::optional<Isa> parse_isa(std::string_view name);
// avx512 or avx512skx: the levels of the AVX-512 backend, which take vector_bits 512 or 256 and
// Tune::znver4.
bool is_avx512_level(Isa isa);

// The CPU a kernel is tuned for (spec field `tune`, ir/vector_width.h). generic: the ISA's
// default plan. znver4 (AMD Zen 4, avx512 and avx512skx only): 512-bit operations run as two
// 256-bit halves there, so the planner may choose ymm blocks (vector_bits 256) over zmm ones.
enum class Tune { generic, znver4 };
std::string_view tune_name(Tune tune);
std::optional<Tune> parse_tune(std::string_view name);

struct Target {
  Isa isa = Isa::scalar;
  // Vector register width in bits. Fixed by the ISA except for SVE and SVE2 (128..2048,
  // multiple of 128), Sunway (256 = SW26010, 512 = SW26010-Pro) and the AVX-512 levels (512,
  // or 256 for ymm blocks). 0 = the ISA's default.
  int vector_bits = 0;
  Tune tune = Tune::generic;
};

// Checks that `tune` applies to the target's ISA, and that a tuned target leaves its width to
// the planner (vector_bits_given: the spec or the command line set one). Throws UserError
// naming `field`.
void check_tune(const Target& target, bool vector_bits_given, const std::string& field);

// Resolves vector_bits == 0 to the ISA's default and checks the value is valid for the ISA.
// Throws UserError naming `field` when it is not.
int resolve_vector_bits(const Target& target, const std::string& field);

// Element types: dtype only matters through its size; bit patterns are moved, never read.
struct Dtype {
  std::string name;  // "float32", "bytes3", ...
  int64_t bytes = 0;
};
// Parses a dtype name ("float32", "complex128", "bytesN" with 1 <= N <= 4096).
std::optional<Dtype> parse_dtype(std::string_view name);
// The dtype names of fixed size, in documentation order.
const std::vector<Dtype>& named_dtypes();

// How a kernel stores its output (spec field `stores`, ir/stream.h):
// automatic: streaming stores for large outputs where the target and the plan allow them;
// streaming: wherever the target and the plan allow them, whatever the size; cached: never.
enum class StoreMode { automatic, streaming, cached };
std::string_view store_mode_name(StoreMode mode);  // "auto", "streaming", "cached"
std::optional<StoreMode> parse_store_mode(std::string_view name);

struct Problem {
  std::string name;           // C identifier of the generated kernel
  Dtype dtype;
  std::vector<int64_t> shape; // input shape, C order, every extent >= 1
  std::vector<int> perm;      // NumPy axes: output axis k is input axis perm[k]
  Target target;              // vector_bits resolved (never 0 after validation)
  bool threads = true;        // emit NAME_part
  StoreMode stores = StoreMode::automatic;
};

// Largest rank gentt accepts (NumPy's limit is 64 since 2.0; ours is the same).
inline constexpr int kMaxRank = 64;
// Largest opaque element size, bytesN.
inline constexpr int64_t kMaxElemBytes = 4096;

// Checks shape, perm, element size and the element count overflow rule. Each error names the
// field as `<prefix>/shape/2` etc. (JSON-pointer style) so that callers can point into specs.
void validate_problem_shape(const std::vector<int64_t>& shape, const std::vector<int>& perm,
                            int64_t elem_bytes, const std::string& prefix);

// The default kernel name for a problem: gentt_<dtype>_s<shape>_p<perm>_<isa>[bits].
std::string default_kernel_name(const Problem& p);

// Number of elements (product of the shape); validated problems never overflow.
int64_t element_count(const std::vector<int64_t>& shape);

}  // namespace gentt
