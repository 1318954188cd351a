# End to end on ARM, on an x86 build machine: random specs -> the host gentt-gen -> NEON, SVE and
# SVE2 kernels cross-compiled with aarch64-linux-gnu-g++ -> a static checker
# (arm_kernel_check.cpp: guard pages, parts, two threads, bit-exact against the reference) run
# under qemu-aarch64 at the SVE vector length the kernels were generated for. The cross compiler
# is called directly from custom commands (no second toolchain); outputs go to
# <build>/tests/e2e/arm/<config>/. qemu runs SVE 4-12 times slower than native code: the
# timings of these tests mean nothing.
#
# GENTT_ARM_TESTS is ON by default when aarch64-linux-gnu-g++ and qemu-aarch64 are found
# (Debian: g++-aarch64-linux-gnu, qemu-user; ./scripts/deps installs both).
find_program(GENTT_AARCH64_CXX aarch64-linux-gnu-g++)
find_program(GENTT_QEMU_AARCH64 qemu-aarch64)
if(GENTT_AARCH64_CXX AND GENTT_QEMU_AARCH64)
  set(_arm_default ON)
else()
  set(_arm_default OFF)
  message(STATUS "gentt: ARM tests off: need aarch64-linux-gnu-g++ and qemu-aarch64 "
    "(apt-get install g++-aarch64-linux-gnu qemu-user)")
endif()
option(GENTT_ARM_TESTS "Cross-compile NEON/SVE kernels and check them under qemu-aarch64" ${_arm_default})
if(NOT GENTT_ARM_TESTS)
  return()
endif()
if(NOT GENTT_AARCH64_CXX OR NOT GENTT_QEMU_AARCH64)
  message(FATAL_ERROR "GENTT_ARM_TESTS is ON but aarch64-linux-gnu-g++ or qemu-aarch64 is missing "
    "(apt-get install g++-aarch64-linux-gnu qemu-user), or set GENTT_AARCH64_CXX and GENTT_QEMU_AARCH64.")
endif()
if(GENTT_SANITIZE)
  message(STATUS "gentt: GENTT_SANITIZE: the ARM checkers (aarch64-linux-gnu-g++, run under qemu-aarch64) "
    "are built without sanitizers; the gentt-gen that writes their kernels has them")
endif()

set(_arm_dir ${CMAKE_CURRENT_BINARY_DIR}/arm)

# _gentt_arm_compile(<object> <source> <flags>...): aarch64-linux-gnu-g++ -c, with a depfile so
# that header changes rebuild the object.
function(_gentt_arm_compile object source)
  add_custom_command(
    OUTPUT ${object}
    COMMAND ${GENTT_AARCH64_CXX} -std=c++20 ${ARGN} -I${PROJECT_SOURCE_DIR} -I${PROJECT_SOURCE_DIR}/runtime/include
            -MD -MF ${object}.d
            -c ${source} -o ${object}
    DEPENDS ${source}
    DEPFILE ${object}.d
    COMMENT "aarch64-linux-gnu-g++ ${source}"
    VERBATIM)
endfunction()

# What every configuration's checker shares, built once: its main and the reference permutation
# (the ground truth), for aarch64. tests/generated links the checked-in kernels with them too:
# target gentt_arm_common builds them, global property GENTT_ARM_COMMON_OBJECTS lists them.
file(MAKE_DIRECTORY ${_arm_dir}/common)
_gentt_arm_compile(${_arm_dir}/common/arm_kernel_check.o ${CMAKE_CURRENT_SOURCE_DIR}/arm_kernel_check.cpp
  -O2 -Wall -Wextra -Werror)
set(_arm_common_objects ${_arm_dir}/common/arm_kernel_check.o)
foreach(src reference arguments)
  _gentt_arm_compile(${_arm_dir}/common/${src}.o ${PROJECT_SOURCE_DIR}/runtime/${src}.cpp -O2 -Wall -Wextra)
  list(APPEND _arm_common_objects ${_arm_dir}/common/${src}.o)
endforeach()
add_custom_target(gentt_arm_common DEPENDS ${_arm_common_objects})
set_property(GLOBAL PROPERTY GENTT_ARM_COMMON_OBJECTS ${_arm_common_objects})

# gentt_arm_checker(<test> DIR <dir> ISA <isa> [VECTOR_BITS <n>] KERNELS <source>... CASES <source>):
# compiles the kernel sources and their case list (arm_cases.h) for aarch64 into <dir>, links them
# with the common objects into the static checker <dir>/arm_kernel_check, and registers test
# <test>, which runs it under qemu-aarch64 (SVE at VECTOR_BITS). Sets GENTT_ARM_CHECKER_<test>
# to the checker's path in the caller's scope.
function(gentt_arm_checker test)
  cmake_parse_arguments(A "" "DIR;ISA;VECTOR_BITS;CASES" "KERNELS" ${ARGN})
  get_property(common GLOBAL PROPERTY GENTT_ARM_COMMON_OBJECTS)
  file(MAKE_DIRECTORY ${A_DIR})
  # -O1 with strict aliasing (what -O2 would assume of the kernels' pointer casts): the checks are
  # of results, and -O2 took 1.7x the compile time (the ARM kernels were 174 s of the suite's
  # 1190 s of compiling on 2 cores).
  set(kernel_flags -O1 -fstrict-aliasing -Wall -Wextra -Werror)
  set(qemu ${GENTT_QEMU_AARCH64})
  if(A_ISA STREQUAL "sve" OR A_ISA STREQUAL "sve2")
    list(APPEND kernel_flags -march=armv8.2-a+${A_ISA} -msve-vector-bits=${A_VECTOR_BITS})
    math(EXPR vl_bytes "${A_VECTOR_BITS} / 8")
    list(APPEND qemu -cpu max,sve-default-vector-length=${vl_bytes})
  endif()

  set(objects "")
  foreach(source IN LISTS A_KERNELS)
    get_filename_component(stem ${source} NAME_WE)
    _gentt_arm_compile(${A_DIR}/${stem}.o ${source} ${kernel_flags})
    list(APPEND objects ${A_DIR}/${stem}.o)
  endforeach()
  _gentt_arm_compile(${A_DIR}/cases.o ${A_CASES} -O1)
  add_custom_command(
    OUTPUT ${A_DIR}/arm_kernel_check
    COMMAND ${GENTT_AARCH64_CXX} -static -pthread ${common} ${A_DIR}/cases.o ${objects}
            -o ${A_DIR}/arm_kernel_check
    DEPENDS ${common} ${A_DIR}/cases.o ${objects}
    COMMENT "Linking the ${test} checker (aarch64, static)"
    VERBATIM)
  add_custom_target(${test}_checker ALL DEPENDS ${A_DIR}/arm_kernel_check)
  add_dependencies(${test}_checker gentt_arm_common)

  add_test(NAME ${test} COMMAND ${qemu} ${A_DIR}/arm_kernel_check)
  set_tests_properties(${test} PROPERTIES LABELS arm TIMEOUT 900)
  set(GENTT_ARM_CHECKER_${test} ${A_DIR}/arm_kernel_check PARENT_SCOPE)
endfunction()

# gentt_e2e_arm(<config> ISA <isa> [VECTOR_BITS <n>] CASES <n> SEED <n>): test e2e_<config>_qemu
# over CASES random kernels.
function(gentt_e2e_arm config)
  cmake_parse_arguments(A "" "ISA;VECTOR_BITS;CASES;SEED" "" ${ARGN})
  set(dir ${_arm_dir}/${config})
  file(MAKE_DIRECTORY ${dir})
  set(shards 4)
  math(EXPR last "${shards} - 1")
  set(bits_arg "")
  if(A_ISA STREQUAL "sve" OR A_ISA STREQUAL "sve2")
    set(bits_arg ${A_VECTOR_BITS})
  endif()

  set(specs "")
  foreach(i RANGE ${last})
    list(APPEND specs ${dir}/cases_${i}.json)
  endforeach()
  add_custom_command(
    OUTPUT ${specs} ${dir}/cases.cpp
    COMMAND e2e_make_specs ${dir} ${shards} ${A_CASES} ${A_SEED} ${A_ISA} ${bits_arg}
    DEPENDS e2e_make_specs
    COMMENT "Writing end-to-end case specs for ${config}"
    VERBATIM)

  set(kernels "")
  foreach(i RANGE ${last})
    add_custom_command(
      OUTPUT ${dir}/kernels_${i}.cpp
      COMMAND gentt-gen generate ${dir}/cases_${i}.json -o ${dir}/kernels_${i}.cpp
      DEPENDS gentt-gen ${dir}/cases_${i}.json
      COMMENT "Generating end-to-end ${config} kernels, shard ${i}"
      VERBATIM)
    list(APPEND kernels ${dir}/kernels_${i}.cpp)
  endforeach()
  gentt_arm_checker(e2e_${config}_qemu DIR ${dir} ISA ${A_ISA} VECTOR_BITS "${A_VECTOR_BITS}"
    KERNELS ${kernels} CASES ${dir}/cases.cpp)
  set(GENTT_ARM_CHECKER_${config} ${GENTT_ARM_CHECKER_e2e_${config}_qemu} PARENT_SCOPE)
endfunction()

# The configurations: NEON; SVE at the lengths of real chips (128: Neoverse V2, 256: V1, 512:
# A64FX) in both shuffle forms; and the widest length, where byte shuffles need the select form.
# NEON and SVE at 256 and 512 bits have fewer random cases than SVE at 128: the checked-in kernels
# of those lengths (tests/generated) are checked too.
gentt_e2e_arm(neon ISA neon CASES 136 SEED 20261201)
gentt_e2e_arm(sve128 ISA sve VECTOR_BITS 128 CASES 120 SEED 20261202)
gentt_e2e_arm(sve256 ISA sve VECTOR_BITS 256 CASES 100 SEED 20261203)
gentt_e2e_arm(sve512 ISA sve VECTOR_BITS 512 CASES 100 SEED 20261204)
gentt_e2e_arm(sve2_128 ISA sve2 VECTOR_BITS 128 CASES 40 SEED 20261205)
gentt_e2e_arm(sve2_256 ISA sve2 VECTOR_BITS 256 CASES 40 SEED 20261206)
gentt_e2e_arm(sve2_512 ISA sve2 VECTOR_BITS 512 CASES 40 SEED 20261207)
gentt_e2e_arm(sve2048 ISA sve VECTOR_BITS 2048 CASES 30 SEED 20261208)
gentt_e2e_arm(sve2_2048 ISA sve2 VECTOR_BITS 2048 CASES 30 SEED 20261209)

# An SVE kernel refuses to run at another vector length, saying why: the 256-bit checker on a
# 512-bit CPU.
# (`!`: the kernel must abort, which a test may not do under CTest.)
add_test(NAME e2e_sve_vector_length_mismatch
  COMMAND sh -c "! \"$0\" -cpu max,sve-default-vector-length=64 \"$1\" --first"
          ${GENTT_QEMU_AARCH64} ${GENTT_ARM_CHECKER_sve256})
set_tests_properties(e2e_sve_vector_length_mismatch PROPERTIES
  LABELS arm
  PASS_REGULAR_EXPRESSION "generated for 256-bit SVE vectors, but this CPU's SVE vector length is 512 bits")
