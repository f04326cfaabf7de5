// plot.hpp — `--plot FILE`: draws a benchmark record with matplotlib.
//
// The script (plot.py) is compiled into the tool, so an installed `ulibc`
// needs no data files; it runs under $ULIBC_PYTHON, else Debian's
// /usr/bin/python3 (which python3-matplotlib serves), else python3 on PATH.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ulibc::cli {

// Checked before a sweep, so that a long run does not end in a plot that
// cannot be drawn: Error(input) for a name not ending in .png or .svg,
// Error(system) when Python or matplotlib is missing (naming the package).
void check_plot_target(const std::string& path);

// Writes the plot of `record` (the JSON of bench_report) to `path`; the
// measurements drawn are `names`, or the headline and the next three.
void draw_plot(const nlohmann::ordered_json& record, const std::string& path, const std::vector<std::string>& names);

}  // namespace ulibc::cli
