// JSON parsing for specs: nlohmann's parser, plus the two things a spec reader needs from it.
// - Malformed text is a UserError giving the byte position (and nlohmann's line/column).
// - A key repeated within one object is a UserError naming its JSON pointer: nlohmann would
//   silently keep the last value, and a typo must not silently change a kernel.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace gentt {

// Objects keep their keys in document order, so errors come out in reading order.
nlohmann::ordered_json parse_strict_json(std::string_view text);

// The JSON pointer token for an object key ("~" -> "~0", "/" -> "~1"; RFC 6901).
std::string json_pointer_token(std::string_view key);

}  // namespace gentt
