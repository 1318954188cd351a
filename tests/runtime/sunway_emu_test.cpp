// Worked lane examples for every intrinsic of the Sunway emulation header (gentt/sunway_emu.h),
// including the simd_vshfw control and simd_vshff immediate examples of the ISA notes.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gentt/sunway_emu.h"

namespace {

intv16 words(int first) {
  intv16 v;
  for (int i = 0; i < 16; ++i) v.w[i] = first + i;
  return v;
}

std::vector<int> lanes(const intv16& v) { return std::vector<int>(v.w, v.w + 16); }
std::vector<std::uint64_t> lanes(const doublev4& v) { return std::vector<std::uint64_t>(v.d, v.d + 4); }

// A control whose words 0..2 are `w0 w1 w2` and whose other words are garbage (ignored).
intv16 control(std::uint32_t w0, std::uint32_t w1, std::uint32_t w2) {
  intv16 c = words(0x5a5a0000);
  c.w[0] = static_cast<std::int32_t>(w0);
  c.w[1] = static_cast<std::int32_t>(w1);
  c.w[2] = static_cast<std::int32_t>(w2 | 0xffff0000u);  // bits 80..95 are not selector bits
  return c;
}

}  // namespace

TEST_CASE("intv16 loads: word i is the 4 bytes at p + 4i (little-endian)", "[sunway_emu]") {
  // Bytes 0x00 0x01 0x02 ... at an odd address: word 0 = 0x03020100, word 1 = 0x07060504, ...
  alignas(64) unsigned char memory[64 + 1];
  for (int i = 0; i < 65; ++i) memory[i] = static_cast<unsigned char>(i - 1);
  intv16 v;
  simd_loadu(v, memory + 1);
  CHECK(v.w[0] == 0x03020100);
  CHECK(v.w[1] == 0x07060504);
  CHECK(v.w[15] == 0x3f3e3d3c);

  alignas(64) std::int32_t aligned[16];
  for (int i = 0; i < 16; ++i) aligned[i] = 100 + i;
  simd_load(v, aligned);
  CHECK(lanes(v) == lanes(words(100)));
}

TEST_CASE("intv16 stores write exactly the register's 64 bytes", "[sunway_emu]") {
  unsigned char memory[66];
  std::memset(memory, 0xee, sizeof memory);
  simd_storeu(words(1), memory + 1);  // unaligned
  CHECK(memory[0] == 0xee);
  CHECK(memory[65] == 0xee);
  std::int32_t back[16];
  std::memcpy(back, memory + 1, 64);
  CHECK(back[0] == 1);
  CHECK(back[15] == 16);

  alignas(64) std::int32_t aligned[16] = {};
  simd_store(words(-8), aligned);
  CHECK(aligned[0] == -8);
  CHECK(aligned[15] == 7);
}

TEST_CASE("doublev4 loads and stores move bits, NaN payloads included", "[sunway_emu]") {
  // A signalling NaN with payload 1, a quiet NaN with a payload, -0.0 and a denormal.
  const std::array<std::uint64_t, 4> bits = {0x7ff0000000000001u, 0xfff8dead0000beefu, 0x8000000000000000u,
                                             0x0000000000000001u};
  unsigned char memory[34];
  std::memset(memory, 0x11, sizeof memory);
  std::memcpy(memory + 1, bits.data(), 32);
  doublev4 v;
  simd_loadu(v, memory + 1);  // lane i = the 8 bytes at p + 8i
  CHECK(lanes(v) == std::vector<std::uint64_t>(bits.begin(), bits.end()));

  alignas(32) std::uint64_t out[4] = {};
  simd_store(v, out);
  CHECK(std::memcmp(out, bits.data(), 32) == 0);
  std::memset(memory, 0x22, sizeof memory);
  simd_storeu(v, memory + 1);
  CHECK(memory[0] == 0x22);
  CHECK(memory[33] == 0x22);
  CHECK(std::memcmp(memory + 1, bits.data(), 32) == 0);

  alignas(32) std::uint64_t in[4] = {1, 2, 3, 4};
  simd_load(v, in);
  CHECK(lanes(v) == std::vector<std::uint64_t>{1, 2, 3, 4});
}

TEST_CASE("simd_vshfw: result word i = concat(a, b)[bits 5i+4..5i of the control]", "[sunway_emu]") {
  const intv16 a = words(100);  // a[i] = 100 + i: selectors 0..15
  const intv16 b = words(200);  // b[i] = 200 + i: selectors 16..31

  SECTION("interleave the low halves: selectors 0 16 1 17 ... 7 23") {
    // Packing the selectors 5 bits each from bit 0 up:
    //   sel0 = 0  -> bits 0-4   = 00000
    //   sel1 = 16 -> bits 5-9   = 10000  (bit 9)             0x00000200
    //   sel2 = 1  -> bits 10-14 = 00001  (bit 10)            0x00000400
    //   sel3 = 17 -> bits 15-19 = 10001  (bits 15, 19)       0x00088000
    //   sel4 = 2  -> bits 20-24 = 00010  (bit 21)            0x00200000
    //   sel5 = 18 -> bits 25-29 = 10010  (bits 26, 29)       0x24000000
    //   sel6 = 3  -> bits 30-34 = 00011  (bits 30, 31)       0xc0000000
    // so word 0 = 0xe4288600; the rest continues into words 1 and 2 the same way.
    const intv16 r = simd_vshfw(a, b, control(0xe4288600u, 0x6a968498u, 0xb9ecu));
    CHECK(lanes(r) == std::vector<int>{100, 200, 101, 201, 102, 202, 103, 203, 104, 204, 105, 205, 106, 206, 107, 207});
  }
  SECTION("reverse a: selectors 15 14 ... 0") {
    const intv16 r = simd_vshfw(a, b, control(0x54b635cfu, 0x3214c742u, 0x44u));
    CHECK(lanes(r) == std::vector<int>{115, 114, 113, 112, 111, 110, 109, 108, 107, 106, 105, 104, 103, 102, 101, 100});
  }
  SECTION("reverse b: selectors 31 30 ... 16") {
    const intv16 r = simd_vshfw(a, b, control(0x75be77dfu, 0x3a56d7c6u, 0x8465u));
    CHECK(lanes(r) == std::vector<int>{215, 214, 213, 212, 211, 210, 209, 208, 207, 206, 205, 204, 203, 202, 201, 200});
  }
  SECTION("an all-zero control broadcasts a[0]; all ones (31) broadcasts b[15]") {
    CHECK(lanes(simd_vshfw(a, b, control(0, 0, 0))) == std::vector<int>(16, 100));
    CHECK(lanes(simd_vshfw(a, b, control(0xffffffffu, 0xffffffffu, 0xffffu))) == std::vector<int>(16, 215));
  }
  SECTION("words move as bits") {
    intv16 x = words(0);
    x.w[3] = static_cast<std::int32_t>(0x7fa00001u);  // a float signalling NaN's bits
    // selector 3 in lane 0 only: word 0 = 3
    CHECK(static_cast<std::uint32_t>(simd_vshfw(x, b, control(3, 0, 0)).w[0]) == 0x7fa00001u);
  }
}

TEST_CASE("simd_vshff: r0 = lo[imm&3], r1 = lo[imm>>2&3], r2 = hi[imm>>4&3], r3 = hi[imm>>6&3]",
          "[sunway_emu]") {
  doublev4 hi, lo;
  for (int i = 0; i < 4; ++i) {
    lo.d[i] = 10 + i;
    hi.d[i] = 20 + i;
  }
  // 0xe4 = 11 10 01 00: r = (lo[0], lo[1], hi[2], hi[3])
  CHECK(lanes(simd_vshff(hi, lo, 0xe4)) == std::vector<std::uint64_t>{10, 11, 22, 23});
  // 0x44 = 01 00 01 00: the low halves, r = (lo[0], lo[1], hi[0], hi[1])
  CHECK(lanes(simd_vshff(hi, lo, 0x44)) == std::vector<std::uint64_t>{10, 11, 20, 21});
  // 0xee = 11 10 11 10: the high halves, r = (lo[2], lo[3], hi[2], hi[3])
  CHECK(lanes(simd_vshff(hi, lo, 0xee)) == std::vector<std::uint64_t>{12, 13, 22, 23});
  // 0x1b = 00 01 10 11: r = (lo[3], lo[2], hi[1], hi[0])
  CHECK(lanes(simd_vshff(hi, lo, 0x1b)) == std::vector<std::uint64_t>{13, 12, 21, 20});
  // 0x55 with the same register twice broadcasts lane 1
  CHECK(lanes(simd_vshff(lo, lo, 0x55)) == std::vector<std::uint64_t>{11, 11, 11, 11});
  // Bits move unchanged: a signalling NaN's payload survives.
  lo.d[2] = 0x7ff0000000000001u;
  CHECK(simd_vshff(hi, lo, 0x02).d[0] == 0x7ff0000000000001u);
}
