// User strings -> values, or a UserError naming the field and listing what is accepted.
// Shared by the spec parser and the command-line flags, so both say the same thing.
#pragma once

#include <string>
#include <string_view>

#include "ir/problem.h"

namespace gentt {

// An ISA name: "avx512", ... (see all_isas()).
Isa parse_isa_field(std::string_view text, const std::string& field);

// A dtype name: "float32", ..., "bytesN" (see named_dtypes()).
Dtype parse_dtype_field(std::string_view text, const std::string& field);

// A store mode: "auto", "streaming" or "cached" (ir/stream.h).
StoreMode parse_stores_field(std::string_view text, const std::string& field);

// A tuning: "generic" or "znver4" (ir/vector_width.h).
Tune parse_tune_field(std::string_view text, const std::string& field);

// Whether `text` can be a C and C++ symbol: [A-Za-z_][A-Za-z0-9_]* and not a keyword.
bool is_identifier(std::string_view text);

// A kernel name (is_identifier).
void check_kernel_name(std::string_view name, const std::string& field);

}  // namespace gentt
