#include "generator/strict_json.h"

#include <fmt/format.h>

#include <set>
#include <string>
#include <vector>

#include "ir/error.h"

namespace gentt {

namespace {

using Json = nlohmann::ordered_json;

// Follows the parser through nested containers so that the position of a duplicate key can
// be named as a JSON pointer.
class KeyTracker {
 public:
  bool operator()(int /*depth*/, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
        frames_.emplace_back(/*is_array=*/false);
        break;
      case Json::parse_event_t::array_start:
        frames_.emplace_back(/*is_array=*/true);
        break;
      case Json::parse_event_t::key: {
        Frame& top = frames_.back();
        top.key = parsed.get<std::string>();
        if (!top.keys.insert(top.key).second)
          throw UserError(pointer(), "duplicate key; each field may appear once per object");
        break;
      }
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        frames_.pop_back();
        value_done();
        break;
      case Json::parse_event_t::value:
        value_done();
        break;
    }
    return true;  // keep every value
  }

 private:
  struct Frame {
    explicit Frame(bool array) : is_array(array) {}
    bool is_array = false;
    size_t index = 0;            // array: index of the element being read
    std::string key;             // object: key of the member being read
    std::set<std::string> keys;  // object: keys seen so far
  };

  // A value (scalar or container) finished: in an array, the next one has the next index.
  void value_done() {
    if (!frames_.empty() && frames_.back().is_array) ++frames_.back().index;
  }

  std::string pointer() const {
    std::string p;
    for (const Frame& f : frames_)
      p += "/" + (f.is_array ? std::to_string(f.index) : json_pointer_token(f.key));
    return p;
  }

  std::vector<Frame> frames_;
};

// nlohmann's message without its "[json.exception.parse_error.101] " prefix.
std::string_view without_id(const Json::exception& e) {
  std::string_view message = e.what();
  if (const size_t close = message.find("] "); close != std::string_view::npos)
    message.remove_prefix(close + 2);
  return message;
}

}  // namespace

std::string json_pointer_token(std::string_view key) {
  std::string token;
  for (char c : key) {
    if (c == '~')
      token += "~0";
    else if (c == '/')
      token += "~1";
    else
      token += c;
  }
  return token;
}

Json parse_strict_json(std::string_view text) {
  KeyTracker tracker;
  try {
    return Json::parse(text.begin(), text.end(), std::ref(tracker));
  } catch (const Json::parse_error& e) {
    throw UserError("", fmt::format("malformed JSON at byte {}: {}", e.byte, without_id(e)));
  } catch (const Json::exception& e) {  // e.g. out_of_range.406: a number beyond double
    throw UserError("", fmt::format("malformed JSON: {}", without_id(e)));
  }
}

}  // namespace gentt
