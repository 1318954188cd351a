# Unity builds of gentt's own libraries, tools and unit tests: CMake compiles their sources in
# batches (one translation unit per batch of 8), so that the headers every source includes
# (fmt, nlohmann/json, CLI11, Catch2, the standard library) are parsed once per batch instead
# of once per source. Parsing was about half of each source's compile time at -O2 (GCC 12,
# -ftime-report), and the suite must build and run in 12 minutes on 2 cores.
#
# Not for the run-time library's SIMD engines (each is a large unit on its own, and they must
# stay separate units for the two cores to compile them side by side) nor for generated kernels
# (a kernel's `#pragma GCC target` would reach the next kernel of its batch): targets opt in by
# name, and sources that cannot share a unit are named in SKIP.
#
# GENTT_UNITY_BUILD=OFF compiles every source on its own (incremental work on one file; or to
# check that each source includes what it uses).
option(GENTT_UNITY_BUILD "Compile gentt's libraries, tools and unit tests as unity builds" ON)

# gentt_unity_build(TARGET [SKIP source...]): TARGET as a unity build (GENTT_UNITY_BUILD), the
# SKIP sources compiled alone.
function(gentt_unity_build target)
  cmake_parse_arguments(U "" "" "SKIP" ${ARGN})
  if(NOT GENTT_UNITY_BUILD)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  if(U_SKIP)
    set_source_files_properties(${U_SKIP} TARGET_DIRECTORY ${target} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endfunction()
