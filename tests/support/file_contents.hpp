// The bytes of a file, "" when it cannot be read: for tests that compare what a program wrote.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

namespace apsp::test {

inline std::string file_contents(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace apsp::test
