// harness/options.hpp — how a kernel and a command register their command-line options, without CLI11 in sight.
//
// The command (`ulibc bench`, `ulibc sssp`) parses with CLI11, a header-only library that compiles its parser into
// every file that uses it: an adapter was half of its kernel's compile time under ASan, each test that parsed an
// adapter's options paid as much again, and each of the command's programs once more. Kernels, commands and tests
// register through this header; options.cpp is the one file that includes CLI11 to register, the command's
// cli_main.cpp the one that parses.
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
  Option& list();                                      // comma-separated values ("--grid 3,4,5")
  Option& show_default();                              // the help shows the value it holds before parsing
  Option& type_name(const std::string& name);          // the help's placeholder ("FILE", "LIST")
  Option& size_suffixes(bool decimal);                 // "64Ki", "2M": k/M/G are 10^3n when `decimal`, else 2^10n
  Option& one_of(std::vector<std::string> words);      // refuses any other value
  Option& in_range(std::int64_t lo, std::int64_t hi);  // refuses a whole number outside [lo, hi]
  // Refuses a value for which `why_not` returns a reason (empty: accepted).
  Option& check(std::function<std::string(const std::string&)> why_not);
  Option& optional_value();                     // may be given without its value ("--json [FILE]")
  Option& required();                           // must be given
  Option& excludes(const std::string& option);  // refused together with `option` ("--json")
  bool given() const;                           // on the command line parsed

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

  // A subcommand of this one ("bench", then "stream"), with the options it registers.
  Options subcommand(const std::string& name, const std::string& description);
  void require_subcommand(int min, int max);  // how many of its subcommands may be chosen
  void footer(const std::string& text);       // the help's last lines
  void prefix_command();                      // the words after its options are left, for a program it runs
  std::string name() const;
  bool parsed() const;                         // chosen on the command line parsed
  std::vector<std::string> remaining() const;  // the words it left

 private:
  CLI::App* app_;
};

// `word` as a size ("64Ki", "2M"; k, M, G are 10^3n when `decimal`, else 2^10n), or std::invalid_argument saying why.
std::uint64_t parse_size(const std::string& word, bool decimal);

// A whole program's command line parsed into what `add` registers, as every ULIBC program answers: --help prints
// the help and gives 0, a refusal prints CLI11's message and gives 2; nullopt when the program should go on.
std::optional<int> parse_program(const std::string& description, int argc, char** argv,
                                 const std::function<void(Options&)>& add);

// Parses `args` (options only, no program name) into what `add` registers, on a command of its own, as the command
// would. A refusal throws std::invalid_argument with CLI11's name for it first ("ValidationError: ..."). For tests.
void parse_options(const std::function<void(Options&)>& add, const std::string& args);

}  // namespace ulibc::harness
