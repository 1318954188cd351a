#include "backends/avx2_layout.h"

#include "ir/error.h"

namespace gentt {

Avx2Layout Avx2Layout::halves(int bytes) {
  GENTT_CHECK(bytes >= 16 && bytes < 32, "the halves layout holds 16 to 31 bytes");
  Avx2Layout l;
  l.halves_bytes = bytes;
  return l;
}

int Avx2Layout::byte_at(int p) const {
  if (halves_bytes == 0 || p < 16) return p;
  return p - 32 + halves_bytes;  // high half: bytes [n - 16, n)
}

int Avx2Layout::position_of(int j, int half) const {
  if (halves_bytes == 0) return j;
  if (j >= halves_bytes) return -1;
  const bool in_low = j < 16, in_high = j >= halves_bytes - 16;
  if (in_high && (half == 1 || !in_low)) return j + 32 - halves_bytes;
  return j;
}

Avx2ByteMap avx2_register_map(const Avx2ByteMap& logical, const Avx2Layout& a, const Avx2Layout& b,
                              const Avx2Layout& result) {
  Avx2ByteMap m;
  m.fill(-1);
  for (int p = 0; p < 32; ++p) {
    const int k = result.byte_at(p);
    if (k < 0 || logical[k] < 0) continue;
    const bool from_b = logical[k] >= 32;
    const int pos = (from_b ? b : a).position_of(logical[k] % 32, p / 16);
    if (pos >= 0) m[p] = (from_b ? 32 : 0) + pos;  // else: a byte past a load's count, undefined
  }
  return m;
}

}  // namespace gentt
