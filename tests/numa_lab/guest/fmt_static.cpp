// fmt_static.cpp — fmt's compiled part, linked into the static guest.
//
// The kernels' archives call fmt's out-of-line functions, which Debian ships in libfmt.so alone: a program with no
// root filesystem cannot load it. fmt keeps those functions in format-inl.h; included without FMT_HEADER_ONLY, it
// defines them here once. The templates it leaves to the library's own source are instantiated below, for char, the
// only character type ULIBC formats.
#include <fmt/format-inl.h>

namespace fmt::detail {
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl<char>(locale_ref) -> char;
}  // namespace fmt::detail
