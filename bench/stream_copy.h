// A streaming copy: the plain copy that writes whole 64-byte lines with non-temporal stores.
//
// gentt_bench reports every kernel against the faster of memcpy and this copy of the same bytes
// ("x best copy"). For tensors far larger than the caches a copy that streams its stores skips
// the read-for-ownership of every destination line, so it moves up to 1.5-2x the bytes of one
// that does not; glibc's memcpy only switches to such stores above a threshold (about 360 MB on
// this project's machines), so below it memcpy understates what a copy can do.
//
// stream_copy(dst, src, n): the head bytes up to the first 64-byte boundary of dst are copied
// with memcpy, then every whole line of dst is written with non-temporal stores (AVX-512
// _mm512_stream_si512 when the CPU has AVX-512F, else two AVX2 _mm256_stream_si256; src is read
// with unaligned loads in one of two orders, StreamOrder), the tail with memcpy, and an sfence
// orders the streamed stores before the function returns. On CPUs (or architectures) with neither
// it is memcpy. Which order copies faster depends on the machine (stream_copy.cpp), so gentt_bench
// times both and takes the faster as the streaming copy.
#pragma once

#include <cstddef>

namespace gentt::bench {

// "avx512", "avx2" or "memcpy": what stream_copy uses on this CPU (checked once, at run time).
const char* stream_copy_isa();

// The order src is read in: four 4 KiB pages at a time, two lines of each in turn (glibc's large
// memcpy's order), or every line in address order.
enum class StreamOrder { four_pages, sequential };

void stream_copy(void* dst, const void* src, std::size_t bytes, StreamOrder order = StreamOrder::four_pages);

}  // namespace gentt::bench
