// "Did you mean ...?" for misspelt names (spec fields, ISAs, dtypes).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gentt {

// The candidate closest to `word` by edit distance, if it is close enough to be a plausible
// typo: at most 2 edits, and at most half the word's length (rounded up).
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates);

// " (did you mean "x"?)" for the closest candidate, or "" when none is close.
std::string did_you_mean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace gentt
