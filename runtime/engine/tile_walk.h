// What the run-time walks that run whole tiles through a buffer share (staged output,
// engine/staged.h; assembled output lines, engine/assembled.h): the odometer over the loops above
// a tile, and the calling thread's line-aligned buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace gentt::engine {

// Tile t's place in the loops above a tile: its index in each loop, and its input and output
// offsets in bytes (the input offset stays 0 where `in_steps` is null); step() moves to tile t + 1
// with no division.
struct TileOdometer {
  const std::vector<std::int64_t>& counts;     // outermost first, at most 64
  const std::vector<std::int64_t>* in_steps;   // bytes, or null
  const std::vector<std::int64_t>& out_steps;  // bytes
  std::int64_t idx[64] = {};
  std::int64_t in = 0, out = 0;

  TileOdometer(const std::vector<std::int64_t>& c, const std::vector<std::int64_t>* is,
               const std::vector<std::int64_t>& os, std::int64_t t)
      : counts(c), in_steps(is), out_steps(os) {
    for (int d = static_cast<int>(counts.size()) - 1; d >= 0; --d) {
      idx[d] = t % counts[d];
      t /= counts[d];
      if (in_steps) in += idx[d] * (*in_steps)[d];
      out += idx[d] * out_steps[d];
    }
  }
  void step() {
    for (int d = static_cast<int>(counts.size()) - 1; d >= 0; --d) {
      if (in_steps) in += (*in_steps)[d];
      out += out_steps[d];
      if (++idx[d] < counts[d]) return;
      if (in_steps) in -= idx[d] * (*in_steps)[d];
      out -= idx[d] * out_steps[d];
      idx[d] = 0;
    }
  }
};

// The calling thread's buffer of at least `bytes`, on a 64-byte line, kept for its next call. On
// the heap: a thread_local array this size would take static TLS space, which a dlopen'ed library
// such as the Python module may not get.
inline char* line_buffer(std::int64_t bytes) {
  constexpr std::int64_t kLine = 64;
  thread_local std::unique_ptr<char[]> buffer;
  thread_local std::int64_t size = 0;
  if (size < bytes) {
    buffer.reset(new char[static_cast<std::size_t>(bytes + kLine)]);
    size = bytes;
  }
  const auto p = reinterpret_cast<std::uintptr_t>(buffer.get());
  return buffer.get() + (kLine - p % kLine) % kLine;
}

}  // namespace gentt::engine
