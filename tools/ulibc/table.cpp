// table.cpp — aligned text tables and cell formatting.
#include "table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

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

}  // namespace ulibc::cli
