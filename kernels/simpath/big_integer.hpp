// simpath/big_integer.hpp — Boost.Multiprecision's cpp_int, the exact counts of paths beyond 128 bits.
//
// GCC 12 at -O3 reports, from inside the library's own string and limb copies, overlaps and bounds that cannot
// happen (-Wrestrict, -Warray-bounds, -Wstringop-overread on cpp_int's copy and to-string paths, GCC bug 105329 and
// kin): silenced here, at the one include, for the library's code and not for ours.
#pragma once
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wrestrict"
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wstringop-overread"
#include <boost/multiprecision/cpp_int.hpp>
#pragma GCC diagnostic pop
