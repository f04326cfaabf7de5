// fuzz_read.hpp — a reader run on a fuzz input, held to the readers' error promise.
//
// The file readers (graph/edge_io, graph/dimacs_io, sparse/matrix_market) either return what they read or throw
// ulibc::Error of kind input whose message is one line starting with the source's name. Anything else — another
// kind, another message, another exception — is a bug, reported through fuzz::fail.
#pragma once
#include <cstdio>
#include <exception>
#include <istream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "fuzz_failure.hpp"
#include "ulibc/error.hpp"

namespace fuzz {

// What reader(istream, source) returns for `input`, or nullopt when it threw ulibc::Error as promised.
template <class Read>
auto read_input(const char* target, const char* source, std::string_view input, Read&& reader)
    -> std::optional<decltype(reader(std::declval<std::istream&>(), std::string()))> {
  std::istringstream in{std::string(input)};
  try {
    return reader(in, source);
  } catch (const ulibc::Error& e) {
    const std::string_view what = e.what();
    if (e.kind() != ulibc::ErrorKind::input) fail(target, "reader threw an Error of kind system", input);
    if (what.find(source) != 0) fail(target, "the message does not start with the source", input);
    if (what.find('\n') != std::string_view::npos) fail(target, "the message is not one line", input);
    return std::nullopt;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s: %s\n", target, source, e.what());
    fail(target, "reader threw something other than ulibc::Error", input);
  } catch (...) {
    fail(target, "reader threw a non-std exception", input);
  }
}

}  // namespace fuzz
