// table.cpp — aligned text tables and cell formatting.
#include "table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

namespace ulibc::cli {

namespace {
void print_line(std::ostream& out, const std::string& indent, const std::vector<Table::Column>& columns,
                const std::vector<std::size_t>& widths, const std::vector<std::string>& cells) {
  std::string line = indent;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const std::string& text = c < cells.size() ? cells[c] : std::string();
    if (c) line += "  ";
    line += columns[c].left ? fmt::format("{:<{}}", text, widths[c]) : fmt::format("{:>{}}", text, widths[c]);
  }
  line.erase(line.find_last_not_of(' ') + 1);
  out << line << '\n';
}
}  // namespace

void Table::print(std::ostream& out, const std::string& indent) const {
  std::vector<std::size_t> widths;
  for (const Column& c : columns_) widths.push_back(c.header.size());
  for (const auto& row : rows_)
    for (std::size_t c = 0; c < row.size() && c < widths.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  std::vector<std::string> headers;
  for (const Column& c : columns_) headers.push_back(c.header);
  print_line(out, indent, columns_, widths, headers);
  for (const auto& row : rows_) print_line(out, indent, columns_, widths, row);
}

std::string cell(long long value) { return value < 0 ? "-" : std::to_string(value); }

std::string number(double x) {
  if (std::isnan(x)) return "-";
  if (x != 0 && std::abs(x) < 1e-3) return fmt::format("{:.3g}", x);
  const int digits = x == 0 ? 1 : static_cast<int>(std::floor(std::log10(std::abs(x)))) + 1;
  return fmt::format("{:.{}f}", x, std::max(0, 4 - digits));
}

}  // namespace ulibc::cli
