// harness/schedulers.cpp — the task kernels' --scheduler option.
#include "harness/schedulers.hpp"

#include <algorithm>
#include <sstream>

#include "ulibc/error.hpp"

namespace ulibc::harness {

std::vector<tasks::Scheduler> scheduler_list(const std::string& text) {
  std::vector<tasks::Scheduler> out;
  std::stringstream words(text);
  std::string word;
  while (std::getline(words, word, ',')) {
    const tasks::Scheduler s = tasks::parse_scheduler(word);
    if (std::find(out.begin(), out.end(), s) != out.end())
      throw input_error("--scheduler " + text + ": " + word + " is named twice");
    out.push_back(s);
  }
  if (out.empty()) throw input_error("--scheduler \"" + text + "\": name at least one scheduler");
  return out;
}

}  // namespace ulibc::harness
