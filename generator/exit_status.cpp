#include "generator/exit_status.h"

#include <new>
#include <string_view>
#include <system_error>

#include "ir/error.h"

namespace gentt {
namespace {

std::string without_prefix(std::string_view text, std::string_view prefix) {
  if (text.starts_with(prefix)) text.remove_prefix(prefix.size());
  return std::string(text);
}

ExitStatus bug(const std::string& detail) { return {kExitInternal, "internal error, please report: " + detail}; }

}  // namespace

ExitStatus exit_status_for(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const UserError& e) {
    return {kExitUser, e.what()};
  } catch (const std::system_error& e) {
    return {kExitIo, e.what()};
  } catch (const std::bad_alloc&) {
    return {kExitIo, "out of memory"};
  } catch (const InternalError& e) {
    return bug(without_prefix(e.what(), "gentt internal error: "));
  } catch (const std::exception& e) {
    return bug(std::string("unexpected exception: ") + e.what());
  } catch (...) {
    return bug("unexpected exception of unknown type");
  }
}

}  // namespace gentt
