// table.hpp — aligned text tables for the human-readable output, so that
// columns line up whatever the width of ids and lists on a given machine.
#pragma once
#include <ostream>
#include <string>
#include <vector>

namespace ulibc::cli {

class Table {
 public:
  struct Column {
    std::string header;
    bool left = false;  // numbers read best right-aligned, lists and words left-aligned
  };
  explicit Table(std::vector<Column> columns) : columns_(std::move(columns)) {}

  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  // Writes header and rows, each line prefixed by `indent`; trailing blanks trimmed.
  void print(std::ostream& out, const std::string& indent = "  ") const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// An id or count as a cell: the library's -1 ("unknown", "not bound") reads as "-".
std::string cell(long long value);
// A measured figure as a cell, four significant digits: 23456.7 → "23457", 0.12345 → "0.1235"; NaN → "-".
std::string number(double x);

}  // namespace ulibc::cli
