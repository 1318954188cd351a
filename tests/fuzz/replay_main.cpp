// The suite's replay of the fuzz targets' seed corpora (ctest -L fuzz): every target of
// tests/fuzz/ is linked in (each built with GENTT_FUZZ_REPLAY, so its entry point is
// gentt_fuzz_<name>) and runs every file given, as libFuzzer would run it once. A finding aborts.
//   gentt_fuzz_replay TARGET FILE_OR_DIRECTORY...
// A directory stands for its regular files, in name order. Exits 2 on bad arguments or when no
// input is found (an empty corpus would pass unnoticed).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" {
int gentt_fuzz_spec_parser(const std::uint8_t* data, std::size_t size);
int gentt_fuzz_cli_flags(const std::uint8_t* data, std::size_t size);
int gentt_fuzz_pipeline(const std::uint8_t* data, std::size_t size);
int gentt_fuzz_runtime(const std::uint8_t* data, std::size_t size);
}

namespace {

struct Target {
  const char* name;
  int (*run)(const std::uint8_t*, std::size_t);
};
constexpr Target kTargets[] = {{"spec_parser", gentt_fuzz_spec_parser},
                               {"cli_flags", gentt_fuzz_cli_flags},
                               {"pipeline", gentt_fuzz_pipeline},
                               {"runtime", gentt_fuzz_runtime}};

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const Target* target = nullptr;
  for (const Target& t : kTargets)
    if (argc >= 2 && std::string(argv[1]) == t.name) target = &t;
  if (argc < 3 || target == nullptr) {
    std::fprintf(stderr, "usage: %s TARGET FILE_OR_DIRECTORY...; targets: spec_parser, cli_flags, pipeline, runtime\n",
                 argv[0]);
    return 2;
  }
  std::vector<fs::path> files;
  for (int i = 2; i < argc; ++i) {
    const fs::path path = argv[i];
    if (fs::is_directory(path)) {
      std::vector<fs::path> in_dir;
      for (const fs::directory_entry& e : fs::directory_iterator(path))
        if (e.is_regular_file()) in_dir.push_back(e.path());
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (fs::is_regular_file(path)) {
      files.push_back(path);
    } else {
      std::fprintf(stderr, "%s: no such file or directory\n", argv[i]);
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "%s: no input files\n", target->name);
    return 2;
  }
  for (const fs::path& file : files) {
    std::ifstream stream(file, std::ios::binary);
    const std::vector<char> bytes((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "%s: %s\n", target->name, file.c_str());
    target->run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("%s: %zu inputs replayed, no finding\n", target->name, files.size());
  return 0;
}
