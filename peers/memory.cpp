// peers/memory.cpp — node-local allocation plus first touch: ULIBC's
// allocate_on_node (strict, the C API's lmalloc) against malloc and libnuma's
// numa_alloc_onnode.
//
// One repetition of a variant is what a program pays for a fresh block:
// allocate `size` bytes, write one byte in every base page (the first touch
// that faults each page in, on the node its policy says), free. The variants
// run interleaved, in an order that rotates with each repetition, so that
// drift falls on all alike; after --warmup untimed rounds the median and the
// minimum are reported with the ratio of each median to lmalloc's.
//   lmalloc       ulibc::allocate_on_node(topo, size, node) (mmap + mbind MPOL_BIND), unmapped at the end
//   lmalloc THP   the same with PageKind::transparent_huge (2 MiB aligned, madvise): fewer faults
//   malloc        glibc malloc/free, the mmap threshold pinned at its default 128 KiB so that every block is a
//                 fresh mapping (glibc otherwise raises it after the first free and reuses resident pages)
//   numa_alloc    libnuma numa_alloc_onnode/numa_free (mmap + mbind MPOL_BIND)
// Before timing, one block of each ULIBC variant is checked: every page on the node.
//
// usage: ulibc_peer_memory [--reps N] [--warmup N] [--size BYTES[K|M|G]]... [--node ID]
#include "ulibc/memory.hpp"

#include <malloc.h>
#include <numa.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "peer_args.hpp"
#include "ulibc/error.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int reps = 21;
  int warmup = 2;
  std::vector<std::size_t> sizes;
  int node = -1;  // -1: the first node with memory
};

struct Variant {
  std::string name;
  std::function<void(std::size_t)> run;  // allocate, touch, free
  std::vector<double> ms;
};

constexpr const char* kUsage =
    "usage: ulibc_peer_memory [--reps N] [--warmup N] [--size BYTES[K|M|G]]... [--node ID]\n";

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "ulibc_peer_memory: %s\n%s", why.c_str(), kUsage);
  std::exit(2);
}

std::size_t parse_size(const std::string& text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  const std::string unit = end;
  const int shift = unit == "" ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : -1;
  if (end == text.c_str() || shift < 0 || v == 0) usage("bad size \"" + text + "\"");
  return static_cast<std::size_t>(v) << shift;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help") {
      std::printf("%s", kUsage);
      std::exit(0);
    }
    if (i + 1 >= argc) usage("missing value after " + arg);
    const std::string value = argv[++i];
    if (arg == "--reps")
      o.reps = static_cast<int>(ulibc::peers::parse_count(value, "--reps", 1, 1000000));
    else if (arg == "--warmup")
      o.warmup = static_cast<int>(ulibc::peers::parse_count(value, "--warmup", 0, 1000000));
    else if (arg == "--size")
      o.sizes.push_back(parse_size(value));
    else if (arg == "--node")
      o.node = static_cast<int>(ulibc::peers::parse_count(value, "--node", 0, 1000000));
    else
      usage("unknown option " + arg);
  }
  if (o.sizes.empty()) o.sizes = {std::size_t{16} << 20, std::size_t{256} << 20};
  return o;
}

void touch(void* p, std::size_t bytes, std::size_t page) {
  auto* c = static_cast<volatile char*>(p);
  for (std::size_t i = 0; i < bytes; i += page) c[i] = 1;
}

void check(void* p, const char* what) {
  if (!p) {
    std::fprintf(stderr, "%s failed\n", what);
    std::exit(1);
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Every page of a touched block of `pages` kind on `node`, or exit.
void verify(const ulibc::Topology& topo, std::size_t size, int node, ulibc::PageKind pages) {
  const auto b = ulibc::allocate_on_node(topo, size, node, {.pages = pages});
  touch(b.data(), b.mapped_bytes(), ulibc::page_size());
  const auto pl = ulibc::page_placement(b.data(), b.mapped_bytes());
  const std::size_t here = pl.per_node.count(node) ? pl.per_node.at(node) : 0;
  std::printf("check: %zu of %zu pages on node %d%s%s\n", here, pl.pages, node,
              b.note().empty() ? "" : "; note: ", b.note().c_str());
  if (here != pl.pages) std::exit(1);
}

std::vector<Variant> variants(const ulibc::Topology& topo, int node) {
  const std::size_t page = ulibc::page_size();
  std::vector<Variant> v;
  v.push_back({"lmalloc", [&topo, node, page](std::size_t size) {
                 const auto b = ulibc::allocate_on_node(topo, size, node);
                 touch(b.data(), size, page);
               }});
  v.push_back({"lmalloc THP", [&topo, node, page](std::size_t size) {
                 const auto b = ulibc::allocate_on_node(topo, size, node, {.pages = ulibc::PageKind::transparent_huge});
                 touch(b.data(), size, page);
               }});
  v.push_back({"malloc", [page](std::size_t size) {
                 void* p = std::malloc(size);
                 check(p, "malloc");
                 touch(p, size, page);
                 std::free(p);
               }});
  if (numa_available() >= 0)
    v.push_back({"numa_alloc_onnode", [node, page](std::size_t size) {
                   void* p = numa_alloc_onnode(size, node);
                   check(p, "numa_alloc_onnode");
                   touch(p, size, page);
                   numa_free(p, size);
                 }});
  return v;
}

void run_size(const ulibc::Topology& topo, const Options& o, int node, std::size_t size) {
  std::vector<Variant> vs = variants(topo, node);
  const int n = static_cast<int>(vs.size());
  for (int r = -o.warmup; r < o.reps; ++r)
    for (int k = 0; k < n; ++k) {
      Variant& v = vs[static_cast<std::size_t>((k + std::max(r, 0)) % n)];
      const auto t0 = Clock::now();
      v.run(size);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      if (r >= 0) v.ms.push_back(ms);
    }
  const double base = median(vs.front().ms);
  const double pages = static_cast<double>(size / ulibc::page_size());
  std::printf("\nsize %zu MiB (%.0f pages of %zu bytes), node %d, %d repetitions\n", size >> 20, pages,
              ulibc::page_size(), node, o.reps);
  std::printf("| variant | median ms | min ms | ns per page (median) | median / lmalloc |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: |\n");
  for (const Variant& v : vs) {
    const double med = median(v.ms);
    const double min = *std::min_element(v.ms.begin(), v.ms.end());
    std::printf("| %s | %.2f | %.2f | %.0f | %.2f |\n", v.name.c_str(), med, min, med * 1e6 / pages, med / base);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  // A fixed threshold also stops glibc's dynamic one (see the header comment).
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  try {
    const auto topo = ulibc::Topology::load("/", ulibc::Detail::placement);
    int node = o.node;
    if (node < 0)
      for (const auto& n : topo.nodes())
        if (n.has_memory() && n.allowed && node < 0) node = n.id;
    for (std::size_t size : o.sizes) {
      verify(topo, size, node, ulibc::PageKind::normal);
      verify(topo, size, node, ulibc::PageKind::transparent_huge);
      run_size(topo, o, node, size);
    }
  } catch (const ulibc::Error& e) {
    std::fprintf(stderr, "ulibc_peer_memory: %s\n", e.what());
    return e.kind() == ulibc::ErrorKind::input ? 2 : 1;
  }
  return 0;
}
