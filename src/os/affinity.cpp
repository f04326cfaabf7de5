#include "os/affinity.hpp"

#include <sched.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "os/process.hpp"
#include "ulibc/error.hpp"

namespace ulibc::os {

namespace {

constexpr int kWordBits = 8 * sizeof(unsigned long);

thread_local std::optional<CpuSet> t_before_binding;

// A kernel mask just long enough for `last`: the kernel zero-fills the rest,
// so binding to processor 3 passes one word, as a hand-written call would.
// Up to 1024 processors it lives on the stack: binding is a hot call.
class KernelMask {
 public:
  explicit KernelMask(int last) : count_(static_cast<std::size_t>(last / kWordBits + 1)) {
    if (count_ > kInline) heap_.assign(count_, 0ul);
  }
  void set(int id) { words()[id / kWordBits] |= 1ul << (id % kWordBits); }
  std::size_t bytes() const { return count_ * sizeof(unsigned long); }
  cpu_set_t* data() { return reinterpret_cast<cpu_set_t*>(words()); }

 private:
  static constexpr std::size_t kInline = 1024 / kWordBits;
  unsigned long* words() { return heap_.empty() ? inline_ : heap_.data(); }
  std::size_t count_;
  unsigned long inline_[kInline] = {};
  std::vector<unsigned long> heap_;
};

void check_id(int proc) {
  if (proc < 0 || proc > CpuSet::kMaxId)
    throw input_error("processor " + std::to_string(proc) + " is outside 0.." + std::to_string(CpuSet::kMaxId));
}

[[noreturn]] void refused(const std::string& what, int err) {
  if (err == EINVAL)
    throw input_error("cannot bind to " + what +
                      ": the kernel refused it (offline, or outside the process's allowed processors " +
                      affinity_before_binding().to_list() + ")");
  throw system_error("sched_setaffinity(" + what + "): " + std::strerror(err));
}

// `what` names the target in an error; it is only called on failure.
template <class What>
void apply(KernelMask& mask, What what) {
  if (::sched_setaffinity(0, mask.bytes(), mask.data()) != 0) refused(what(), errno);
}

std::string processor_name(int proc) { return "processor " + std::to_string(proc); }

KernelMask mask_of(const CpuSet& cpus) {
  if (cpus.empty()) throw input_error("cannot bind to an empty processor set");
  KernelMask mask(cpus.last());
  for (int id : cpus) mask.set(id);
  return mask;
}

void remember() {
  if (!t_before_binding) t_before_binding = thread_affinity();
}

}  // namespace

void bind_current_thread(int proc) {
  check_id(proc);
  remember();
  KernelMask mask(proc);
  mask.set(proc);
  apply(mask, [proc] { return processor_name(proc); });
}

void bind_current_thread(const CpuSet& cpus) {
  KernelMask mask = mask_of(cpus);
  remember();
  apply(mask, [&cpus] { return "processors " + cpus.to_list(); });
}

bool restore_current_thread() {
  if (!t_before_binding) return false;
  set_current_affinity(*t_before_binding);
  t_before_binding.reset();
  return true;
}

CpuSet affinity_before_binding() { return t_before_binding ? *t_before_binding : thread_affinity(); }

bool has_binding_record() { return t_before_binding.has_value(); }

void set_current_affinity(const CpuSet& cpus) {
  KernelMask mask = mask_of(cpus);
  apply(mask, [&cpus] { return "processors " + cpus.to_list(); });
}

void bind_thread(pthread_t thread, int proc) {
  check_id(proc);
  KernelMask mask(proc);
  mask.set(proc);
  if (const int err = ::pthread_setaffinity_np(thread, mask.bytes(), mask.data()); err != 0)
    refused(processor_name(proc), err);
}

int current_cpu() { return ::sched_getcpu(); }

}  // namespace ulibc::os
