// The IR as readable text (`gentt-gen ir`) and as JSON (`gentt-gen ir --format json`).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ir/kernel.h"

namespace gentt {

std::string print_kernel(const Kernel& kernel);
nlohmann::ordered_json kernel_to_json(const Kernel& kernel);

}  // namespace gentt
