// inspect_report.hpp — the report of ulibc/inspect.hpp as text or JSON, shared by `ulibc inspect` and
// `ulibc run --report`.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>

#include "ulibc/inspect.hpp"

namespace ulibc::cli {

struct ReportForm {
  bool json = false;
  bool mappings = false;       // every numa_maps mapping, not only the sums per node
  std::optional<long> age_ms;  // run --report: how long before the program ended the report was taken
};

nlohmann::ordered_json report_json(const ProcessReport& r, const ReportForm& form);
void print_report(const ProcessReport& r, const ReportForm& form);

}  // namespace ulibc::cli
