# Builds and runs tests/cmake/consumer against gentt, then checks that the kernels are
# generated again when the spec or the generator changes, and only then.
#   cmake -DMODE=add_subdirectory|find_package|cross -DWORK_DIR=... -DCONSUMER_DIR=...
#         -DGENTT_SOURCE_DIR=... (add_subdirectory, cross) -DGENTT_BINARY_DIR=... (find_package)
#         -DCMAKE_GENERATOR=... -DCMAKE_MAKE_PROGRAM=... -DCMAKE_CXX_COMPILER=...
#         -DBUILD_TYPE=... [-DISAS=scalar;avx2] [-DVECTOR_BITS=n] -P run_consumer.cmake
# MODE cross also takes -DTOOLCHAIN_FILE=... (it replaces CMAKE_CXX_COMPILER),
# -DHOST_GENERATOR=<gentt-gen of this machine> and -DRUN_PREFIX=qemu-aarch64|-L|... (the
# emulator command, arguments separated by |).
cmake_minimum_required(VERSION 3.25)

foreach(var MODE WORK_DIR CONSUMER_DIR CMAKE_GENERATOR CMAKE_CXX_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_consumer.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED ISAS)
  set(ISAS scalar)
endif()

# ISAS=auto: scalar, plus avx2 and avx512 on x86 when `gentt-gen list-isas` (LIST_ISAS_GENERATOR)
# says their backends are implemented. They are compiled whatever the CPU; the consumer runs
# the ones the CPU supports.
if(ISAS STREQUAL "auto")
  set(ISAS scalar)
  cmake_host_system_information(RESULT host_cpu QUERY OS_PLATFORM)
  if(host_cpu MATCHES "^(x86_64|AMD64|amd64)$" AND LIST_ISAS_GENERATOR)
    execute_process(COMMAND "${LIST_ISAS_GENERATOR}" list-isas
      OUTPUT_VARIABLE isa_lines RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "${LIST_ISAS_GENERATOR} list-isas failed (exit ${rc})")
    endif()
    string(REPLACE "\n" ";" isa_lines "${isa_lines}")
    foreach(line IN LISTS isa_lines)   # "avx2    vector bits: 256   backend: implemented   ..."
      if(line MATCHES "^(avx2|avx512) .*backend: implemented")
        list(APPEND ISAS ${CMAKE_MATCH_1})
      endif()
    endforeach()
  endif()
endif()

# step(<description> COMMAND ...): runs the command; on failure prints its output and stops.
function(step description)
  message(STATUS "${description}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    message(NOTICE "${out}${err}")   # verbatim, unlike a FATAL_ERROR message
    message(FATAL_ERROR "FAILED: ${description} (exit ${rc}); the output is above.\n"
      "command: ${command}")
  endif()
  set(STEP_OUTPUT "${out}${err}" PARENT_SCOPE)
endfunction()

# Start from nothing; work on a copy of the consumer so its spec can be touched.
file(REMOVE_RECURSE "${WORK_DIR}")
file(COPY "${CONSUMER_DIR}/" DESTINATION "${WORK_DIR}/src")
set(src "${WORK_DIR}/src")
set(build "${WORK_DIR}/build")

string(REPLACE ";" "," isas_commas "${ISAS}")  # a list would split into several arguments
set(configure_args
  -S "${src}" -B "${build}" -G "${CMAKE_GENERATOR}"
  "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}"
  "-DCONSUMER_ISAS=${isas_commas}"
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
if(NOT MODE STREQUAL "cross")
  list(APPEND configure_args "-DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}")
endif()
if(DEFINED VECTOR_BITS)
  list(APPEND configure_args "-DCONSUMER_VECTOR_BITS=${VECTOR_BITS}")
endif()
string(REPLACE "|" ";" run_prefix "${RUN_PREFIX}")
if(CMAKE_MAKE_PROGRAM)
  list(APPEND configure_args "-DCMAKE_MAKE_PROGRAM=${CMAKE_MAKE_PROGRAM}")
endif()

if(MODE STREQUAL "add_subdirectory")
  list(APPEND configure_args "-DGENTT_SOURCE_TREE=${GENTT_SOURCE_DIR}"
    -DGENTT_BUILD_TESTS=OFF -DGENTT_BUILD_BENCH=OFF
    # Without the run-time library's SIMD engines this test takes 106 s instead of 210 (2 cores,
    # -O0); the consumer does not run them, and the suite's own build compiles them.
    -DGENTT_RUNTIME_SIMD_ENGINES=OFF)
elseif(MODE STREQUAL "cross")
  # The generator runs here; a copy, so that touching it below rebuilds nothing else.
  file(COPY "${HOST_GENERATOR}" DESTINATION "${WORK_DIR}/host")
  cmake_path(GET HOST_GENERATOR FILENAME generator_name)
  list(APPEND configure_args "-DGENTT_SOURCE_TREE=${GENTT_SOURCE_DIR}"
    "-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE}" "-DGENTT_GENERATOR=${WORK_DIR}/host/${generator_name}")
elseif(MODE STREQUAL "find_package")
  set(prefix "${WORK_DIR}/prefix")
  step("install the gentt build ${GENTT_BINARY_DIR} into ${prefix}"
    "${CMAKE_COMMAND}" --install "${GENTT_BINARY_DIR}" --prefix "${prefix}")
  list(APPEND configure_args "-DCMAKE_PREFIX_PATH=${prefix}")
else()
  message(FATAL_ERROR "run_consumer.cmake: MODE must be add_subdirectory, find_package or cross, not '${MODE}'")
endif()

step("configure the consumer (${MODE})" "${CMAKE_COMMAND}" ${configure_args})
if(MODE STREQUAL "find_package")
  # The package must come from the install prefix, not from the build tree or the system.
  file(STRINGS "${build}/CMakeCache.txt" gentt_dir REGEX "^gentt_DIR:")
  if(NOT gentt_dir MATCHES "=${prefix}/")
    message(FATAL_ERROR "find_package(gentt) did not use the install prefix ${prefix}: ${gentt_dir}")
  endif()
endif()

step("build the consumer" "${CMAKE_COMMAND}" --build "${build}" -j 2)
step("run the consumer" ${run_prefix} "${build}/consumer")
message(STATUS "${STEP_OUTPUT}")

include("${build}/gentt_paths.cmake")  # GENERATOR, KERNEL_SOURCES
if(NOT KERNEL_SOURCES)
  message(FATAL_ERROR "the consumer's kernel library lists no generated sources")
endif()

# mtime(<var>): the modification times (whole seconds) of the generated sources.
function(mtimes var)
  set(times "")
  foreach(f IN LISTS KERNEL_SOURCES)
    if(NOT EXISTS "${f}")
      message(FATAL_ERROR "generated source ${f} does not exist")
    endif()
    file(TIMESTAMP "${f}" t "%s" UTC)
    list(APPEND times "${t}")
  endforeach()
  set(${var} "${times}" PARENT_SCOPE)
endfunction()

# expect_regeneration(<yes|no> <why>): rebuilds and checks whether the kernels were generated again.
function(expect_regeneration expected why)
  mtimes(before)
  # Timestamps compared in whole seconds: let one pass before anything is touched or rebuilt.
  execute_process(COMMAND "${CMAKE_COMMAND}" -E sleep 1.1)
  foreach(f IN LISTS ARGN)
    file(TOUCH "${f}")
  endforeach()
  step("rebuild: ${why}" "${CMAKE_COMMAND}" --build "${build}" -j 2)
  mtimes(after)
  list(LENGTH before n)
  math(EXPR last "${n} - 1")
  foreach(i RANGE ${last})
    list(GET before ${i} b)
    list(GET after ${i} a)
    list(GET KERNEL_SOURCES ${i} f)
    if(expected AND NOT a GREATER b)
      message(FATAL_ERROR "${why}: ${f} was not generated again (mtime ${b} -> ${a})\n${STEP_OUTPUT}")
    elseif(NOT expected AND NOT a EQUAL b)
      message(FATAL_ERROR "${why}: ${f} was generated again, but nothing it depends on changed\n${STEP_OUTPUT}")
    endif()
  endforeach()
endfunction()

expect_regeneration(NO "nothing changed")
expect_regeneration(YES "the spec was touched" "${src}/specs/transpose.json")
expect_regeneration(YES "the generator was touched" "${GENERATOR}")
step("run the consumer after regeneration" ${run_prefix} "${build}/consumer")
message(STATUS "PASSED: consumer via ${MODE} (ISAs: ${ISAS})")
