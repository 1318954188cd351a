#include "generator/field_parsers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>

#include "generator/suggest.h"
#include "ir/error.h"

namespace gentt {

namespace {

// C11 and C++20 keywords (and the alternative operator spellings): a kernel name is both a
// C symbol (extern "C") and a C++ identifier in the generated file.
// clang-format off
constexpr std::string_view kKeywords[] = {
    "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic", "_Imaginary", "_Noreturn",
    "_Static_assert", "_Thread_local", "alignas", "alignof", "and", "and_eq", "asm", "auto",
    "bitand", "bitor", "bool", "break", "case", "catch", "char", "char16_t", "char32_t", "char8_t",
    "class", "co_await", "co_return", "co_yield", "compl", "concept", "const", "const_cast",
    "consteval", "constexpr", "constinit", "continue", "decltype", "default", "delete", "do",
    "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float",
    "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new",
    "noexcept", "not", "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected",
    "public", "register", "reinterpret_cast", "requires", "restrict", "return", "short", "signed",
    "sizeof", "static", "static_assert", "static_cast", "struct", "switch", "template", "this",
    "thread_local", "throw", "true", "try", "typedef", "typeid", "typename", "union", "unsigned",
    "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
};
// clang-format on

bool is_keyword(std::string_view text) {
  return std::find(std::begin(kKeywords), std::end(kKeywords), text) != std::end(kKeywords);
}

bool is_identifier_char(char c, bool first) {
  const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  return letter || (!first && c >= '0' && c <= '9');
}

}  // namespace

Isa parse_isa_field(std::string_view text, const std::string& field) {
  if (std::optional<Isa> isa = parse_isa(text)) return *isa;
  std::vector<std::string> names;
  for (Isa isa : all_isas()) names.emplace_back(isa_name(isa));
  throw UserError(field, fmt::format("unknown isa \"{}\"{}; expected one of {}", text,
                                     did_you_mean(text, names), fmt::join(names, ", ")));
}

StoreMode parse_stores_field(std::string_view text, const std::string& field) {
  if (std::optional<StoreMode> mode = parse_store_mode(text)) return *mode;
  std::vector<std::string> names;
  for (StoreMode m : {StoreMode::automatic, StoreMode::streaming, StoreMode::cached})
    names.emplace_back(store_mode_name(m));
  throw UserError(field, fmt::format("unknown store mode \"{}\"{}; expected one of {}", text,
                                     did_you_mean(text, names), fmt::join(names, ", ")));
}

Tune parse_tune_field(std::string_view text, const std::string& field) {
  if (std::optional<Tune> tune = parse_tune(text)) return *tune;
  std::vector<std::string> names;
  for (Tune t : {Tune::generic, Tune::znver4}) names.emplace_back(tune_name(t));
  throw UserError(field, fmt::format("unknown tune \"{}\"{}; expected one of {}", text, did_you_mean(text, names),
                                     fmt::join(names, ", ")));
}

Dtype parse_dtype_field(std::string_view text, const std::string& field) {
  if (std::optional<Dtype> dtype = parse_dtype(text)) return *dtype;
  std::vector<std::string> names;
  for (const Dtype& d : named_dtypes()) names.push_back(d.name);
  throw UserError(
      field, fmt::format("unknown dtype \"{}\"{}; expected one of {}, or bytesN "
                         "for an opaque N-byte element (1 <= N <= {})",
                         text, did_you_mean(text, names), fmt::join(names, ", "), kMaxElemBytes));
}

bool is_identifier(std::string_view text) {
  if (text.empty()) return false;
  for (size_t i = 0; i < text.size(); ++i)
    if (!is_identifier_char(text[i], i == 0)) return false;
  return !is_keyword(text);
}

void check_kernel_name(std::string_view name, const std::string& field) {
  if (is_identifier(name)) return;
  throw UserError(field, is_keyword(name)
                             ? fmt::format("\"{}\" is a C/C++ keyword and cannot name a "
                                           "kernel",
                                           name)
                             : fmt::format("\"{}\" is not a C identifier (letters, digits "
                                           "and underscores, not starting with a digit)",
                                           name));
}

}  // namespace gentt
