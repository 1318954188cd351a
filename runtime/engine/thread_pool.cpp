#include "runtime/engine/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace gentt::engine {

namespace {

// Workers and the caller spin this long for new work or for the last part before they block:
// waking a blocked thread costs several microseconds, as long as a 300 KiB permutation takes,
// and callers in a loop issue the next call within that time.
constexpr auto kSpin = std::chrono::microseconds(100);

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

class Pool {
 public:
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
  }

  // Runs the parts with the pool if it is free, else on the calling thread.
  void run(int parts, const std::function<void(int)>& fn) {
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock() || parts <= 1) {
      for (int p = 0; p < parts; ++p) fn(p);
      return;
    }
    grow(parts - 1);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &fn;
      parts_ = parts;
      next_ = 1;  // part 0 is the caller's
      pending_ = parts - 1;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    fn(0);
    // The caller also takes parts the workers have not started.
    for (;;) {
      int p;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (next_ >= parts_) break;
        p = next_++;
      }
      fn(p);
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) pending_done_.store(true, std::memory_order_release);
    }
    const auto until = std::chrono::steady_clock::now() + kSpin;
    while (pending_done_.load(std::memory_order_acquire) == false && std::chrono::steady_clock::now() < until) relax();
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
    pending_done_.store(false, std::memory_order_relaxed);
  }

 private:
  void grow(int wanted) {
    const int limit = std::max(1, machine_threads() - 1) * 4;  // oversubscription is the caller's choice
    wanted = std::min(wanted, limit);
    while (static_cast<int>(workers_.size()) < wanted) workers_.emplace_back([this] { work(); });
  }

  void work() {
    unsigned long seen = 0;
    for (;;) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return generation_.load(std::memory_order_relaxed) != seen; });
      seen = generation_.load(std::memory_order_relaxed);
      if (stopping_) return;
      while (job_ && next_ < parts_) {
        const int p = next_++;
        const auto* job = job_;
        lock.unlock();
        (*job)(p);
        lock.lock();
        if (--pending_ == 0) {
          pending_done_.store(true, std::memory_order_release);
          done_.notify_all();
        }
      }
      lock.unlock();
      // Spin a little for the next call before blocking (see kSpin).
      const auto until = std::chrono::steady_clock::now() + kSpin;
      while (generation_.load(std::memory_order_acquire) == seen && std::chrono::steady_clock::now() < until) relax();
    }
  }

  std::mutex busy_;   // held by the call using the pool
  std::mutex mutex_;  // guards everything below
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const std::function<void(int)>* job_ = nullptr;
  int parts_ = 0, next_ = 0, pending_ = 0;
  std::atomic<unsigned long> generation_{0};  // changed (under mutex_) for every call
  std::atomic<bool> pending_done_{false};      // the call's last worker part finished
  bool stopping_ = false;
};

Pool& pool() {
  static Pool instance;
  return instance;
}

}  // namespace

void run_parts(int parts, const std::function<void(int)>& fn) { pool().run(parts, fn); }

int machine_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace gentt::engine
