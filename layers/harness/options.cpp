// harness/options.cpp — the kernels' options on CLI11: the one file of the harness that compiles it.
#include "harness/options.hpp"

#include <CLI/CLI.hpp>
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
