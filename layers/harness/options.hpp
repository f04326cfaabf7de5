// harness/options.hpp — how a kernel registers its command-line options, without CLI11 in sight.
//
// The command (`ulibc bench`, `ulibc sssp`) parses with CLI11, a header-only library that compiles its parser into
// every file that uses it: an adapter was half of its kernel's compile time under ASan, and each test that parsed an
// adapter's options paid as much again. Kernels and tests register through this header; options.cpp is the one file
// of the harness that includes CLI11.
#pragma once
#include <concepts>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace ulibc::harness {

template <class T, class... Types>
concept OneOf = (std::same_as<T, Types> || ...);
// The types an option's value may have, each instantiated once in options.cpp: a value, an optional one (empty when
// not given, so that its default can depend on other options), or a list.
template <class T>
concept OptionValue =
    OneOf<T, int, std::int64_t, std::uint64_t, double, std::string, std::optional<int>, std::optional<std::uint64_t>,
          std::optional<double>, std::vector<int>, std::vector<std::int64_t>, std::vector<std::string>>;

// One registered option; each refinement returns it again, so that they chain.
class Option {
 public:
  Option& list();                                  // comma-separated values ("--grid 3,4,5")
  Option& show_default();                          // the help shows the value it holds before parsing
  Option& type_name(const std::string& name);      // the help's placeholder ("FILE", "LIST")
  Option& size_suffixes(bool decimal);             // "64Ki", "2M": k/M/G are 10^3n when `decimal`, else 2^10n
  Option& one_of(std::vector<std::string> words);  // refuses any other value

 private:
  friend class Options;
  explicit Option(CLI::Option* o) : o_(o) {}
  CLI::Option* o_;
};

// The options of one command or subcommand; values live in the caller, which must outlive the parse.
class Options {
 public:
  explicit Options(CLI::App& app) : app_(&app) {}
  template <OptionValue T>
  Option add(const std::string& name, T& value, const std::string& help);
  Option flag(const std::string& name, bool& value, const std::string& help);

 private:
  CLI::App* app_;
};

// Parses `args` (options only, no program name) into what `add` registers, on a command of its own, as the command
// would. A refusal throws std::invalid_argument with CLI11's name for it first ("ValidationError: ..."). For tests.
void parse_options(const std::function<void(Options&)>& add, const std::string& args);

}  // namespace ulibc::harness
