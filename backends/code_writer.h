// A tiny structured writer for emitted C++: nested blocks indent themselves (two spaces), so
// no emitter keeps an indent counter. In the spirit of cgen (loopy's emission layer).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace gentt {

class CodeWriter {
 public:
  // One line at the current indentation (an empty string gives an empty line).
  void line(std::string_view text);
  template <class... Args>
  void linef(fmt::format_string<Args...> f, Args&&... args) {
    line(fmt::format(f, std::forward<Args>(args)...));
  }
  // `header {` ... `}footer`, with the body indented one level.
  void block(std::string_view header, const std::function<void()>& body, std::string_view footer = "");
  // `if (condition) {` ... `} else {` ... `}`, both bodies indented one level.
  void if_else(std::string_view condition, const std::function<void()>& then_body,
               const std::function<void()>& else_body);
  // Text inserted as is (already formatted, e.g. a prelude), ending with a newline.
  void raw(std::string_view text);
  // `// text` lines, one per line of `text`, at the current indentation.
  void comment(std::string_view text);

  const std::string& str() const { return out_; }

 private:
  std::string out_;
  int depth_ = 0;
};

}  // namespace gentt
