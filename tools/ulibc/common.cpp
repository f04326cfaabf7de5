// common.cpp — options and output shared by every subcommand.
#include <iostream>

#include "commands.hpp"

namespace ulibc::cli {

void add_common_options(CLI::App& sub, CommonOptions& opts) {
  sub.add_option("--fsroot", opts.fsroot,
                 "Read sysfs/procfs below DIR (a snapshot of another machine); default $ULIBC_FSROOT, else /")
      ->type_name("DIR");
  sub.add_flag("--json", opts.json, "Print JSON instead of text");
}

void print_json(const nlohmann::ordered_json& j) { std::cout << j.dump(2) << '\n'; }

}  // namespace ulibc::cli
