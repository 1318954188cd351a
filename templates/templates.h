// Access to the templates embedded at build time (templates/*.h, see cmake/Embed.cmake).
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace gentt {

const std::map<std::string, std::string_view>& embedded_templates();
// The text of one template by file name; throws InternalError if it is not embedded.
std::string_view template_text(const std::string& name);

}  // namespace gentt
