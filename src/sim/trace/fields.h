// The fields of one line of the simulator's CSV files (the arrival trace, the observation trace): split at
// every separator, empty fields kept, no quoting (no field of these files holds the separator).
#pragma once

#include <string>
#include <vector>

namespace blis::sim {

inline std::vector<std::string> split_fields(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char ch : line) {
    if (ch == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += ch;
    }
  }
  out.push_back(cur);
  return out;
}

}  // namespace blis::sim
