// gentt_bench_cases: turns a benchmark case file into gentt-gen specs and a case manifest.
//
//   gentt_bench_cases CASES.txt OUT_DIR --set NAME [--shards N] [--max-bytes B]
//
// A case file has one case a line, `dtype ; shape... ; axes...` (C order, NumPy axes), '#'
// starts a comment line (see bench/sets/README.md). Case i (1-based, in file order) becomes
// the kernel NAME_caseII (e.g. gentt_case07). Written into OUT_DIR:
//   spec_0.json .. spec_<N-1>.json  the kernels, dealt round-robin into N shards so that the
//                                   generated sources compile in parallel (a shard may hold
//                                   no kernel: {"kernels": []}, see generate_kernels.cmake)
//   cases.tsv                       the manifest gentt_bench and numpy_bench.py read: one line a
//                                   case with the kernel name, the problem as benchmarked and a
//                                   note when it differs from the case file
// A case larger than --max-bytes (default 1 GiB) has its first axis halved until it fits, and
// the manifest says so (seed002.txt: 12 x 32 x ... uint16 is 2.1 GiB, measured with 3 x 32 x ...).
// Files are only rewritten when their contents change, so an unchanged case file does not
// regenerate or recompile any kernel. Exit status: 0 done, 2 bad arguments or case file, 1 I/O.
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ir/problem.h"

namespace {

struct Case {
  int line = 0;
  std::string dtype;
  int64_t elem_bytes = 0;
  std::vector<int64_t> shape;  // as benchmarked
  std::vector<int> perm;
  std::string note;
};

struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  const auto e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(s);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!s.empty() && s.back() == sep) parts.push_back("");
  return parts;
}

std::vector<int64_t> parse_ints(const std::string& text, const std::string& where) {
  std::vector<int64_t> values;
  std::istringstream in(text);
  std::string word;
  while (in >> word) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(word.c_str(), &end, 10);
    if (*end || errno || v < 0) throw InputError(where + ": '" + word + "' is not a non-negative integer");
    values.push_back(v);
  }
  return values;
}

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;  // validated: no overflow
  return p;
}

template <class T>
std::string join(const std::vector<T>& v, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

std::string format_bytes(int64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f GiB", double(bytes) / double(1LL << 30));
  return buf;
}

std::vector<Case> read_cases(const std::string& path, int64_t max_bytes) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<Case> cases;
  std::string raw;
  for (int line = 1; std::getline(in, raw); ++line) {
    const std::string text = trim(raw);
    if (text.empty() || text.front() == '#') continue;
    const std::string where = path + ":" + std::to_string(line);
    const auto fields = split(text, ';');
    if (fields.size() != 3)
      throw InputError(where + ": expected 'dtype ; shape... ; axes...', got '" + text + "'");
    Case c;
    c.line = line;
    c.dtype = trim(fields[0]);
    const auto dtype = gentt::parse_dtype(c.dtype);
    if (!dtype) throw InputError(where + ": unknown dtype '" + c.dtype + "'");
    c.elem_bytes = dtype->bytes;
    c.shape = parse_ints(fields[1], where);
    for (int64_t a : parse_ints(fields[2], where)) c.perm.push_back(int(a));
    try {
      gentt::validate_problem_shape(c.shape, c.perm, c.elem_bytes, "");
    } catch (const std::exception& e) {
      throw InputError(where + ": " + e.what());
    }
    const int64_t bytes = product(c.shape) * c.elem_bytes;
    if (bytes > max_bytes && !c.shape.empty()) {
      const int64_t first = c.shape[0];
      while (product(c.shape) * c.elem_bytes > max_bytes && c.shape[0] > 1) c.shape[0] /= 2;
      c.note = "scaled: first axis " + std::to_string(first) + " -> " + std::to_string(c.shape[0]) +
               " (" + format_bytes(bytes) + " -> " + format_bytes(product(c.shape) * c.elem_bytes) +
               ", benchmark limit " + format_bytes(max_bytes) + ")";
    }
    cases.push_back(std::move(c));
  }
  if (cases.empty()) throw InputError(path + ": no cases");
  return cases;
}

// Writes `text` to `path` unless the file already holds exactly that.
void write_if_changed(const std::string& path, const std::string& text) {
  {
    std::ifstream old(path, std::ios::binary);
    if (old) {
      std::ostringstream buf;
      buf << old.rdbuf();
      if (buf.str() == text) return;
    }
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename " + tmp + " to " + path);
}

std::string kernel_name(const std::string& set, std::size_t index, std::size_t count) {
  const int width = count >= 100 ? 3 : 2;
  std::string number = std::to_string(index + 1);
  if (number.size() < std::size_t(width)) number.insert(0, std::size_t(width) - number.size(), '0');
  return set + "_case" + number;
}

[[noreturn]] void usage(const std::string& message) {
  std::fprintf(stderr,
               "gentt_bench_cases: %s\n"
               "usage: gentt_bench_cases CASES.txt OUT_DIR --set NAME [--shards N] [--max-bytes B]\n",
               message.c_str());
  std::exit(2);
}

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
  for (char ch : s)
    if (!(std::isalnum((unsigned char)ch) || ch == '_')) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> positional;
  std::string set;
  long shards = 1;
  long long max_bytes = 1LL << 30;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(std::string(arg) + " needs a value");
      return argv[++i];
    };
    if (arg == "--set") {
      set = value();
    } else if (arg == "--shards") {
      shards = std::strtol(value().c_str(), nullptr, 10);
      if (shards < 1 || shards > 64) usage("--shards: expected 1..64");
    } else if (arg == "--max-bytes") {
      max_bytes = std::strtoll(value().c_str(), nullptr, 10);
      if (max_bytes < 1) usage("--max-bytes: expected a positive integer");
    } else if (arg.starts_with("-")) {
      usage("unknown option " + std::string(arg));
    } else {
      positional.emplace_back(arg);
    }
  }
  if (positional.size() != 2) usage("expected CASES.txt and OUT_DIR");
  if (!is_identifier(set)) usage("--set: expected a C identifier, got '" + set + "'");
  const std::string& case_file = positional[0];
  const std::string& out_dir = positional[1];

  try {
    const std::vector<Case> cases = read_cases(case_file, max_bytes);

    std::vector<std::string> shard_text(static_cast<std::size_t>(shards));
    std::string manifest =
        "# gentt benchmark cases, set " + set + ", from " + case_file + " (written by gentt_bench_cases)\n"
        "# kernel\tdtype\telem_bytes\tshape\taxes\tbytes\tline\tnote\n";
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const Case& c = cases[i];
      const std::string name = kernel_name(set, i, cases.size());
      std::string& spec = shard_text[i % std::size_t(shards)];
      spec += std::string(spec.empty() ? "" : ",\n") + "  {\"name\": \"" + name + "\", \"dtype\": \"" + c.dtype +
              "\", \"shape\": [" + join(c.shape, ", ") + "], \"perm\": [" + join(c.perm, ", ") + "]}";
      manifest += name + "\t" + c.dtype + "\t" + std::to_string(c.elem_bytes) + "\t" + join(c.shape, ",") +
                  "\t" + join(c.perm, ",") + "\t" + std::to_string(product(c.shape) * c.elem_bytes) + "\t" +
                  std::to_string(c.line) + "\t" + c.note + "\n";
      if (!c.note.empty()) std::printf("gentt_bench_cases: %s (%s line %d): %s\n", name.c_str(), case_file.c_str(), c.line, c.note.c_str());
    }
    for (long s = 0; s < shards; ++s) {
      const std::string& body = shard_text[std::size_t(s)];
      write_if_changed(out_dir + "/spec_" + std::to_string(s) + ".json",
                       body.empty() ? "{\"kernels\": []}\n" : "{\"kernels\": [\n" + body + "\n]}\n");
    }
    write_if_changed(out_dir + "/cases.tsv", manifest);
  } catch (const InputError& e) {
    std::fprintf(stderr, "gentt_bench_cases: error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gentt_bench_cases: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
