// rank_tasks/movable_task.hpp — a task that can run on another rank of the same program: its callable sent as
// bytes, with the index of its kind, and run there.
//
// What may move: a callable that is trivially copyable and small (Movable), so its captures are values — numbers,
// offsets into global memory (global_memory/), small structs of those. A capture of a std::string, a std::vector,
// a std::function or anything else with a destructor or a copy constructor of its own fails to compile. A captured
// raw pointer or reference compiles (the language cannot tell it from a value), but it means nothing on another
// rank: capture global offsets instead.
//
// How it is named: each callable type that pack() is instantiated for gets a kind, numbered in the order the
// program registers kinds while it starts (static initialisers, run in one order by one binary), never by its code
// address. So ranks need not share one address-space layout (Itoyori asks for address-space randomisation to be
// switched off). fingerprint() hashes the kinds' type names in order: ranks compare it to know they agree.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <typeinfo>

namespace ulibc::rank_tasks {

inline constexpr std::size_t kMaxTaskBytes = 96;

template <class F>
concept Movable = std::is_trivially_copyable_v<F> && std::is_invocable_v<F&> && sizeof(F) <= kMaxTaskBytes &&
                  alignof(F) <= alignof(std::max_align_t);

// A task as it travels: plain bytes (send it as MPI_BYTE).
struct MovedTask {
  std::uint32_t kind = 0;
  std::uint32_t bytes = 0;
  alignas(std::max_align_t) std::byte payload[kMaxTaskBytes] = {};
};

namespace detail {
using Runner = void (*)(const MovedTask&);
std::uint32_t register_kind(Runner run, const char* name, std::size_t bytes);

// The callable's bytes are its value (trivially copyable): copied out of the message, they are the callable.
template <Movable F>
void run_as(const MovedTask& t) {
  alignas(F) std::byte storage[sizeof(F)];
  std::memcpy(storage, t.payload, sizeof(F));
  (*std::launder(reinterpret_cast<F*>(storage)))();
}

// Initialised with the program, before main, for every type pack() is instantiated for.
template <Movable F>
inline const std::uint32_t kind_of = register_kind(&run_as<F>, typeid(F).name(), sizeof(F));
}  // namespace detail

template <Movable F>
MovedTask pack(const F& f) {
  MovedTask t;
  t.kind = detail::kind_of<F>;
  t.bytes = sizeof(F);
  std::memcpy(t.payload, static_cast<const void*>(&f), sizeof(F));
  return t;
}

// Runs a task packed by this program on any rank. Error(input) for a kind this program has not registered or a
// size that is not its kind's (a corrupted or foreign message).
void run(const MovedTask& t);

std::size_t kinds();          // the kinds registered
std::uint64_t fingerprint();  // of the kinds' type names, in order

// Collective: Error(input) on every rank of comm unless all have the same kinds, as ranks of one program do.
void check_same_kinds(MPI_Comm comm);

}  // namespace ulibc::rank_tasks
