// harness/options.cpp — the kernels' options on CLI11: the one file of the harness that compiles it.
#include "harness/options.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <stdexcept>
#include <utility>

namespace ulibc::harness {

Option& Option::list() {
  o_->delimiter(',');
  return *this;
}

Option& Option::show_default() {
  o_->capture_default_str();
  return *this;
}

Option& Option::type_name(const std::string& name) {
  o_->type_name(name);
  return *this;
}

Option& Option::size_suffixes(bool decimal) {
  o_->transform(CLI::AsSizeValue(decimal));
  return *this;
}

Option& Option::one_of(std::vector<std::string> words) {
  o_->check(CLI::IsMember(std::move(words)));
  return *this;
}

Option& Option::in_range(std::int64_t lo, std::int64_t hi) {
  o_->check(CLI::Range(lo, hi));
  return *this;
}

Option& Option::check(std::function<std::string(const std::string&)> why_not) {
  o_->check(std::move(why_not));
  return *this;
}

Option& Option::optional_value() {
  o_->expected(0, 1);
  return *this;
}

Option& Option::required() {
  o_->required();
  return *this;
}

Option& Option::excludes(const std::string& option) {
  o_->excludes(option);
  return *this;
}

bool Option::given() const { return o_->count() > 0; }

template <OptionValue T>
Option Options::add(const std::string& name, T& value, const std::string& help) {
  return Option(app_->add_option(name, value, help));
}

template Option Options::add(const std::string&, int&, const std::string&);
template Option Options::add(const std::string&, std::int64_t&, const std::string&);
template Option Options::add(const std::string&, std::uint64_t&, const std::string&);
template Option Options::add(const std::string&, double&, const std::string&);
template Option Options::add(const std::string&, std::string&, const std::string&);
template Option Options::add(const std::string&, std::optional<int>&, const std::string&);
template Option Options::add(const std::string&, std::optional<std::uint64_t>&, const std::string&);
template Option Options::add(const std::string&, std::optional<double>&, const std::string&);
template Option Options::add(const std::string&, std::vector<int>&, const std::string&);
template Option Options::add(const std::string&, std::vector<std::int64_t>&, const std::string&);
template Option Options::add(const std::string&, std::vector<std::string>&, const std::string&);

Option Options::flag(const std::string& name, bool& value, const std::string& help) {
  return Option(app_->add_flag(name, value, help));
}

Options Options::subcommand(const std::string& name, const std::string& description) {
  return Options(*app_->add_subcommand(name, description));
}

void Options::require_subcommand(int min, int max) { app_->require_subcommand(min, max); }
void Options::footer(const std::string& text) { app_->footer(text); }
void Options::prefix_command() { app_->prefix_command(); }
std::string Options::name() const { return app_->get_name(); }
bool Options::parsed() const { return app_->parsed(); }
std::vector<std::string> Options::remaining() const { return app_->remaining(); }

std::uint64_t parse_size(const std::string& word, bool decimal) {
  std::string text = word;
  std::string why;
  try {
    why = CLI::AsSizeValue(decimal)(text);
  } catch (const CLI::Error& e) {
    why = e.what();
  }
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (!why.empty() || ec != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument(why.empty() ? "not a size: \"" + word + "\"" : why);
  return value;
}

std::optional<int> parse_program(const std::string& description, int argc, char** argv,
                                 const std::function<void(Options&)>& add) {
  CLI::App app(description);
  Options options(app);
  add(options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return std::nullopt;
}

void parse_options(const std::function<void(Options&)>& add, const std::string& args) {
  CLI::App app;
  Options options(app);
  add(options);
  try {
    app.parse(args);
  } catch (const CLI::Error& e) {
    throw std::invalid_argument(e.get_name() + ": " + e.what());
  }
}

}  // namespace ulibc::harness
