// Conversion and scaling through output slabs (runtime/slab_conversion.h): where slabs apply and
// how a problem is cut, and gentt::permute through them against the reference: the strided view
// gathered, permuted as the input type by gentt::reference_permute, then converted (and scaled
// over the output's old values) as one flat row. Guard pages after both tensors; strided and
// reversed input views, several slabs with a shorter last chunk, parts in any order, 2 threads.
#include <catch2/catch.hpp>

#include <gentt/permute.h>
#include <gentt/reference.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "runtime/engine/strided_problem.h"
#include "runtime/slab_conversion.h"
#include "tests/runtime/guarded_buffer.h"

namespace {

using gentt::test::GuardedBuffer;

std::optional<gentt::detail::SlabGeometry> slabs_of(std::int64_t elem_bytes, std::vector<std::int64_t> shape,
                                                    std::vector<int> perm, std::string* why) {
  std::vector<std::int64_t> in_strides(shape.size()), out_strides(shape.size());
  std::int64_t s = 1;
  for (size_t a = shape.size(); a-- > 0;) in_strides[a] = s, s *= shape[a];
  s = 1;
  for (size_t k = shape.size(); k-- > 0;) out_strides[k] = s, s *= shape[static_cast<size_t>(perm[k])];
  const gentt::engine::StridedProblem sp =
      gentt::engine::make_strided_problem(elem_bytes, shape, perm, in_strides, out_strides);
  return gentt::detail::choose_slabs(sp, elem_bytes, why);
}

struct SlabType {
  const char* name;
  int bytes;
  bool floating;
};

}  // namespace

TEST_CASE("slabs: where they apply and how the output is cut", "[convert][slabs]") {
  std::string why;
  // float32 64^3 reversed: the input's innermost axis is the output's outermost, cut in whole
  // lines (16 floats): 4 slabs of 256 KiB.
  auto g = slabs_of(4, {64, 64, 64}, {2, 1, 0}, &why);
  REQUIRE(g.has_value());
  CHECK(g->split == 0);
  CHECK(g->chunk == 16);
  CHECK(g->whole == -1);
  CHECK(g->slabs == 4);
  // HWC -> CHW with C = 3: C (the input's innermost axis) stays whole, H is chunked.
  g = slabs_of(4, {224, 224, 3}, {2, 0, 1}, &why);
  REQUIRE(g.has_value());
  CHECK(g->whole == 0);
  CHECK(g->whole_extent == 3);
  CHECK(g->whole_extent * g->chunk * g->inner * 4 <= gentt::detail::kSlabTargetBytes);
  CHECK(g->slabs == (50176 + g->chunk - 1) / g->chunk);
  // The input's innermost axis kept whole where that leaves output runs of 64 elements or more
  // (40 rows of 409 elements a slab), cut in lines where not (4096 runs of 4): past 8 MiB, none.
  g = slabs_of(4, {20000, 40}, {1, 0}, &why);
  REQUIRE(g.has_value());
  CHECK(g->whole == 0);
  CHECK(g->chunk * g->inner >= 64);
  CHECK_FALSE(slabs_of(4, {20000, 4096}, {1, 0}, &why).has_value());
  g = slabs_of(4, {20000, 100}, {1, 0}, &why);  // 8 MB: runs of 163 elements
  REQUIRE(g.has_value());
  CHECK(g->whole == 0);
  g = slabs_of(4, {2000, 1000}, {1, 0}, &why);  // 8 MB: 1000 rows, runs of 16
  REQUIRE(g.has_value());
  CHECK(g->whole == -1);
  CHECK(g->chunk == 16);
  // A transpose whose rows fit: 2 output rows of 1024 per slab would cut the input's rows below a
  // line, so the slab takes 16 (a line of float32).
  g = slabs_of(4, {1024, 1024}, {1, 0}, &why);
  REQUIRE(g.has_value());
  CHECK(g->chunk == 16);
  // The same past 8 MiB: the fused blocks' cache tiles.
  CHECK_FALSE(slabs_of(4, {4096, 4096}, {1, 0}, &why).has_value());
  CHECK(why.find("cache tiles") != std::string::npos);
  // Kept rows of 1 KiB: the row engine converts them.
  CHECK_FALSE(slabs_of(4, {16, 32, 256}, {1, 0, 2}, &why).has_value());
  CHECK(why.find("rows of 1024 bytes") != std::string::npos);
  // Kept rows shorter than the row engine takes: slabs.
  CHECK(slabs_of(1, {64, 512, 2}, {1, 0, 2}, &why).has_value());
  // A slab that keeps whole lines of the input's innermost axis may not exceed kSlabMaxBytes.
  CHECK_FALSE(slabs_of(8, {2048, 2048, 64}, {2, 1, 0}, &why).has_value());
  CHECK(why.find("at most 512 KiB") != std::string::npos);

  // Several parts: slabs of a quarter of a part, 16-64 KiB, so that they balance.
  CHECK(gentt::detail::slab_target_bytes(150528, 1) == 64 << 10);
  CHECK(gentt::detail::slab_target_bytes(150528, 2) == 150528 / 8);
  CHECK(gentt::detail::slab_target_bytes(4 << 20, 2) == 64 << 10);
  CHECK(gentt::detail::slab_target_bytes(32 << 10, 2) == 16 << 10);

  gentt::PermuteDesc d;
  d.dtype = "float32";
  d.out_dtype = "float16";
  d.shape = {64, 64, 64};
  d.perm = {2, 1, 0};
  const std::string text = gentt::plan_permute(d).describe();
  INFO(text);
  CHECK(text.find("through output slabs of 65536 elements (256 KiB of the input type)") != std::string::npos);
  CHECK(text.find("slab problem: float32 shape (64,64,16) perm (2,1,0) in_strides (4096,64,1)") != std::string::npos);
}

TEST_CASE("slabs: random conversions and scalings equal the reference, views, parts, threads", "[convert][slabs]") {
  const SlabType types[] = {{"uint8", 1, false},   {"int16", 2, false},   {"uint16", 2, false},
                            {"int32", 4, false},   {"float16", 2, true},  {"bfloat16", 2, true},
                            {"float32", 4, true},  {"float64", 8, true},  {"complex64", 8, true}};
  std::mt19937_64 rng(20261129);
  auto below = [&](std::uint64_t n) { return static_cast<std::int64_t>(rng() % n); };
  int through_slabs = 0, whole_axis = 0, several = 0;
  for (int i = 0; i < 60; ++i) {
    const SlabType& from = types[below(9)];
    const SlabType& to = types[below(9)];
    const int rank = 2 + static_cast<int>(below(4));
    const bool channels_first = below(3) == 0;  // a short innermost input axis made outermost (HWC -> CHW)
    std::vector<std::int64_t> shape;
    std::vector<int> perm;
    std::int64_t n = 1;
    for (int a = 0; a < rank; ++a) {
      // 20K-400K elements: several slabs of 64 KiB. Short innermost axes now and then (C = 3).
      const std::int64_t e = a + 1 == rank && (channels_first || below(3) == 0)
                                 ? 2 + below(6)
                                 : 2 + below(rank == 2 ? 700 : rank == 3 ? 80 : 25);
      shape.push_back(e);
      n *= e;
      perm.push_back(a);
    }
    if (n < 2000 || n > 600000) {
      --i;
      continue;
    }
    for (int a = rank - 1; a > 0; --a) std::swap(perm[static_cast<size_t>(a)], perm[static_cast<size_t>(below(a + 1))]);
    if (channels_first) {  // slabs keep the input's innermost axis whole
      perm.erase(std::find(perm.begin(), perm.end(), rank - 1));
      perm.insert(perm.begin(), rank - 1);
    }

    // The input: a view of a larger parent, some axes reversed (negative strides).
    std::vector<std::int64_t> parent(shape), strides(static_cast<size_t>(rank));
    for (auto& e : parent) e += below(3);
    std::int64_t parent_n = 1;
    for (int a = rank - 1; a >= 0; --a) {
      strides[static_cast<size_t>(a)] = parent_n;
      parent_n *= parent[static_cast<size_t>(a)];
    }
    const bool view = below(2) == 0;
    std::int64_t base = 0;  // element offset of the view's first element in the parent
    if (view)
      for (int a = 0; a < rank; ++a)
        if (below(3) == 0) {
          base += (shape[static_cast<size_t>(a)] - 1) * strides[static_cast<size_t>(a)];
          strides[static_cast<size_t>(a)] = -strides[static_cast<size_t>(a)];
        }
    const std::int64_t in_count = view ? parent_n : n;
    GuardedBuffer in(static_cast<std::size_t>(in_count * from.bytes));
    auto* in_bytes = reinterpret_cast<unsigned char*>(in.data());
    for (std::int64_t b = 0; b < in_count * from.bytes; ++b)
      in_bytes[b] = static_cast<unsigned char>(rng() & (from.floating ? 0x3f : 0xff));  // finite floats
    const unsigned char* view_base = in_bytes + (view ? base * from.bytes : 0);

    gentt::PermuteDesc d;
    d.dtype = from.name;
    d.out_dtype = to.name;
    d.shape = shape;
    d.perm = perm;
    if (view) d.in_strides = strides;
    d.threads = 1 + static_cast<int>(below(2));
    if (to.floating && below(3) == 0) {
      d.alpha = 0.5;
      d.beta = below(2) ? 0.0 : 2.0;
    }
    const gentt::PermutePlan plan = gentt::plan_permute(d);
    const std::string text = plan.describe();
    INFO(from.name << " -> " << to.name << ", alpha " << d.alpha.real() << " beta " << d.beta.real() << "\n" << text);
    if (text.find("through output slabs") != std::string::npos) {
      ++through_slabs;
      whole_axis += text.find("(the input's innermost) whole") != std::string::npos;
      several += text.find("; 1 slab(s)") == std::string::npos;
    }

    // The reference: the view gathered, permuted, then converted and scaled as one row.
    std::vector<unsigned char> gathered(static_cast<std::size_t>(n * from.bytes));
    std::vector<std::int64_t> idx(static_cast<size_t>(rank), 0);
    for (std::int64_t e = 0; e < n; ++e) {
      std::int64_t at = 0;
      for (int a = 0; a < rank; ++a) at += idx[static_cast<size_t>(a)] * strides[static_cast<size_t>(a)];
      if (!view) at = e;
      std::memcpy(&gathered[static_cast<std::size_t>(e * from.bytes)], view_base + at * from.bytes,
                  static_cast<std::size_t>(from.bytes));
      for (int a = rank - 1; a >= 0; --a) {
        if (++idx[static_cast<size_t>(a)] < shape[static_cast<size_t>(a)]) break;
        idx[static_cast<size_t>(a)] = 0;
      }
    }
    std::vector<unsigned char> permuted(gathered.size());
    gentt::reference_permute(gathered.data(), permuted.data(), static_cast<std::size_t>(from.bytes), shape, perm);
    std::vector<unsigned char> initial(static_cast<std::size_t>(n * to.bytes));
    for (auto& b : initial) b = static_cast<unsigned char>(rng() & 0x3f);
    std::vector<unsigned char> want = initial;
    gentt::PermuteDesc flat;
    flat.dtype = from.name;
    flat.out_dtype = to.name;
    flat.shape = {n};
    flat.perm = {0};
    flat.alpha = d.alpha;
    flat.beta = d.beta;
    flat.isa = "scalar";
    gentt::plan_permute(flat).execute(permuted.data(), want.data());

    GuardedBuffer out(static_cast<std::size_t>(n * to.bytes));
    std::memcpy(out.data(), initial.data(), initial.size());
    plan.execute(view_base, out.data());
    REQUIRE(std::memcmp(out.data(), want.data(), want.size()) == 0);
    // Parts in reverse order, on this thread.
    std::memcpy(out.data(), initial.data(), initial.size());
    const int parts = 3;
    for (int p = parts - 1; p >= 0; --p) plan.execute_part(view_base, out.data(), p, parts);
    REQUIRE(std::memcmp(out.data(), want.data(), want.size()) == 0);
  }
  CHECK(through_slabs >= 30);
  CHECK(whole_axis >= 3);
  CHECK(several >= 20);
}
