// Golden-file comparison: the expected text lives in tests/<folder>/golden/NAME. Run a test
// with GENTT_UPDATE_GOLDEN=1 to rewrite the files after an intended change, then review the
// diff like code.
#pragma once

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace gentt::test {

inline std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// True if `actual` equals the golden file (or the file was rewritten on request).
inline bool matches_golden(const std::string& path, const std::string& actual) {
  if (const char* update = std::getenv("GENTT_UPDATE_GOLDEN"); update && std::string(update) == "1") {
    std::ofstream(path, std::ios::binary) << actual;
    return true;
  }
  return read_file(path) == actual;
}

}  // namespace gentt::test
