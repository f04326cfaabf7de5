// config/environment.hpp — every environment variable the library reads, one function each, and what its
// value means. Convention: nullopt (or an empty list) when the variable is unset, or empty where a function
// says so; a value that means nothing is Error(input) naming the variable.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ulibc::config {

inline constexpr std::string_view kFsRoot = "ULIBC_FSROOT";
inline constexpr std::string_view kPolicy = "ULIBC_POLICY";
inline constexpr std::string_view kNumThreads = "ULIBC_NUM_THREADS";
inline constexpr std::string_view kOutsideBinding = "ULIBC_OUTSIDE_BINDING";
inline constexpr std::string_view kOpenMPNumThreads = "OMP_NUM_THREADS";
// The launchers' (local rank, local size) variables, in the order they are looked for: Open MPI's, MPICH's.
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 2> kLauncherLocalRanks = {
    {{"OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE"}, {"MPI_LOCALRANKID", "MPI_LOCALNRANKS"}}};
// The variables by which OpenMP runtimes bind their threads themselves: the standard's two, GCC's, Intel's.
inline constexpr std::array<std::string_view, 4> kOpenMPBindingVariables = {"OMP_PLACES", "OMP_PROC_BIND",
                                                                            "GOMP_CPU_AFFINITY", "KMP_AFFINITY"};

// ULIBC_FSROOT: the filesystem root a topology is read from when the caller names none. Empty: unset.
std::optional<std::string> fsroot();

// ULIBC_POLICY: the policy's text, which Policy::parse reads (policy_from_env). Empty: unset.
std::optional<std::string> policy();

// ULIBC_NUM_THREADS, else the first level of OMP_NUM_THREADS ("8,2" → 8): a thread count from 1 to
// Mapping::kMaxThreads. Empty: unset.
std::optional<int> thread_count();

// The local rank of this process among those its launcher started on this machine, and their count: Open MPI's
// OMPI_COMM_WORLD_LOCAL_RANK and _LOCAL_SIZE, else MPICH's MPI_LOCALRANKID and MPI_LOCALNRANKS. nullopt when
// neither pair is set; a half-set pair, a non-number or a rank outside 0..size-1 is malformed.
// Returned as (rank, size).
std::optional<std::pair<int, int>> launcher_local_rank();

// ULIBC_OUTSIDE_BINDING=respect|override: whether ULIBC binds a team although OpenMP's binding variables
// are set. Unset: respect (false); empty is malformed.
bool override_outside_binding();

// "NAME=value" for each of kOpenMPBindingVariables, in that order, set to a value that binds: empty,
// OMP_PROC_BIND=false and KMP_AFFINITY=none|disabled switch binding off, so they are not listed.
std::vector<std::string> openmp_binding_settings();

}  // namespace ulibc::config
