# Install rules and the CMake package (find_package(gentt)).
#
# generator/ and runtime/ install their own targets into the export set genttTargets
# (gentt-gen -> gentt::gentt-gen, gentt_runtime with EXPORT_NAME runtime -> gentt::runtime).
# This file installs that export set, genttConfig.cmake, its version file and
# GenttAddKernels.cmake into <prefix>/<libdir>/cmake/gentt, so that
#   find_package(gentt REQUIRED)
#   gentt_add_kernels(my_kernels SPECS a.json ISA avx2)
# works against an installed gentt exactly as it does with add_subdirectory.
option(GENTT_INSTALL "Generate gentt's install rules and CMake package" ON)
if(NOT GENTT_INSTALL)
  return()
endif()

include(CMakePackageConfigHelpers)
set(GENTT_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/gentt"
  CACHE STRING "Where genttConfig.cmake is installed, relative to the install prefix")
mark_as_advanced(GENTT_INSTALL_CMAKEDIR)

install(EXPORT genttTargets
  NAMESPACE gentt::
  FILE genttTargets.cmake
  DESTINATION "${GENTT_INSTALL_CMAKEDIR}")

# find_dependency() lines for packages that exported targets link (static libraries carry their
# private dependencies into the link interface).
set(GENTT_CONFIG_DEPENDENCIES "find_dependency(fmt)\nfind_dependency(Threads)")

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/genttConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/genttConfig.cmake"
  INSTALL_DESTINATION "${GENTT_INSTALL_CMAKEDIR}")
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/genttConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion)

install(FILES
  "${PROJECT_BINARY_DIR}/genttConfig.cmake"
  "${PROJECT_BINARY_DIR}/genttConfigVersion.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/GenttAddKernels.cmake"
  DESTINATION "${GENTT_INSTALL_CMAKEDIR}")
