#include "templates/templates.h"

#include "ir/error.h"

namespace gentt {

std::string_view template_text(const std::string& name) {
  const auto& all = embedded_templates();
  auto it = all.find(name);
  GENTT_CHECK(it != all.end(), "template not embedded: " + name);
  return it->second;
}

}  // namespace gentt
