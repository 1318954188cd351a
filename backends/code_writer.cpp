#include "backends/code_writer.h"

namespace gentt {

void CodeWriter::line(std::string_view text) {
  if (!text.empty()) out_.append(static_cast<size_t>(depth_) * 2, ' ');
  out_.append(text);
  out_ += '\n';
}

void CodeWriter::block(std::string_view header, const std::function<void()>& body, std::string_view footer) {
  line(std::string(header) + " {");
  ++depth_;
  body();
  --depth_;
  line("}" + std::string(footer));
}

void CodeWriter::if_else(std::string_view condition, const std::function<void()>& then_body,
                         const std::function<void()>& else_body) {
  line("if (" + std::string(condition) + ") {");
  ++depth_;
  then_body();
  --depth_;
  line("} else {");
  ++depth_;
  else_body();
  --depth_;
  line("}");
}

void CodeWriter::raw(std::string_view text) {
  out_.append(text);
  if (!text.empty() && text.back() != '\n') out_ += '\n';
}

void CodeWriter::comment(std::string_view text) {
  // One comment line per line of text; a trailing newline does not add an empty line.
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  size_t start = 0;
  for (;;) {
    const size_t end = text.find('\n', start);
    const std::string_view piece = text.substr(start, end == std::string_view::npos ? text.npos : end - start);
    line(piece.empty() ? "//" : "// " + std::string(piece));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
}

}  // namespace gentt
