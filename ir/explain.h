// `gentt-gen explain`: the canonical problem, the chosen block and why, in plain text.
#pragma once

#include <string>

#include "ir/kernel.h"
#include "ir/plan.h"
#include "ir/problem.h"

namespace gentt {

std::string explain(const Problem& problem, const Plan& plan, const Kernel& kernel);
// One-paragraph plan summary used in generated-file banners (lines without comment markers).
std::string plan_summary(const Plan& plan, const Kernel& kernel);

}  // namespace gentt
