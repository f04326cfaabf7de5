// gmres/gram_schmidt.cpp — the orthogonalisations' names, as options and records spell them.
#include "gmres/gram_schmidt.hpp"

#include <array>

#include "harness/named.hpp"

namespace ulibc::gmres {

namespace {
constexpr std::array<const char*, 3> kOrthNames = {"cgs", "mgs", "cgs2"};
}  // namespace

std::string orth_name(Orth o) { return harness::name_of(o, kOrthNames); }
Orth parse_orth(const std::string& name) { return harness::parse_name<Orth>(name, kOrthNames, "orthogonalisation"); }

}  // namespace ulibc::gmres
