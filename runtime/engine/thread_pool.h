// The library's persistent thread pool: workers started once (on first use, as many as the
// largest `threads` asked for, at most the machine's cores minus the caller), woken for each
// call, each running one part. The calling thread runs part 0. Calls from several user
// threads at once are safe: one call holds the pool; a call that finds it busy runs its parts
// on its own thread instead of waiting.
#pragma once

#include <functional>

namespace gentt::engine {

// Runs fn(0) .. fn(parts - 1), each exactly once, at most `parts` at a time; returns when all
// are done. Exceptions must not escape fn.
void run_parts(int parts, const std::function<void(int)>& fn);

// Cores of this machine (std::thread::hardware_concurrency, at least 1).
int machine_threads();

}  // namespace gentt::engine
