# gentt_add_kernels(): generate permutation kernels from spec files at build time and compile
# them into a static library.
#
#   gentt_add_kernels(<target>
#     SPECS <spec.json>...        # one or more spec files (relative paths: to CMAKE_CURRENT_SOURCE_DIR)
#     ISA <isa>...                # avx512 avx512skx avx2 sve sve2 neon sunway scalar; one or several
#     [VECTOR_BITS <n>]           # --vector-bits for sve, sve2, sunway; required for sve, sve2 (e.g. 256)
#     [OUTPUT_DIR <dir>])         # default: ${CMAKE_CURRENT_BINARY_DIR}/gentt_kernels/<target>
#
# Creates the STATIC library <target>. For each spec and each ISA, the build runs
#   gentt-gen generate <spec> --isa <isa> [--vector-bits n] [--name-suffix _<isa>] -o <dir>/<spec-stem>.<isa>.cpp
# The command depends on the spec file and on the gentt-gen executable, so kernels are generated
# again when a spec or the generator changes. With more than one ISA, every kernel symbol gets
# the suffix _<isa> (e.g. my_kernel_avx2, my_kernel_avx512) so the variants can live side by
# side in one library; with one ISA the symbols are exactly the spec's names.
#
# The ISA compile flags are set on the generated sources only (source file property
# COMPILE_OPTIONS), never on <target>'s usage requirements, so code that links <target> is not
# compiled for an ISA the machine may lack. The x86 flags name exactly the CPU features the
# kernels declare (their banner and NAME_info.features; ir/target_features.h):
#   avx512     -mavx512f -mavx512bw -mavx512vl -mavx512vbmi
#   avx512skx  -mavx512f -mavx512bw -mavx512vl   (Skylake-SP, Cascade Lake, Cooper Lake: no VBMI)
#   avx2       -mavx2
#   sve     -march=armv8.2-a+sve -msve-vector-bits=<VECTOR_BITS>
#   sve2    -march=armv8.2-a+sve2 -msve-vector-bits=<VECTOR_BITS>
#   neon, sunway, scalar: no flags
# neon, sve and sve2 sources are AArch64 code: build them natively on ARM, or cross-compile (a
# toolchain file such as cmake/toolchains/aarch64-linux-gnu.cmake, see README "Cross builds").
# <target> links gentt::runtime PUBLIC when that target exists (it provides <gentt/kernel_info.h>,
# <gentt/sunway_emu.h> for Sunway kernels built by other compilers, and the registry the
# kernels' descriptors are meant for).
#
# Which gentt-gen runs: GENTT_GENERATOR when set (a path; cross builds, whose own gentt-gen would
# not run on the build machine); else the imported target gentt::gentt-gen after
# find_package(gentt); else the build-tree target gentt-gen (aliased as gentt::gentt-gen) when
# gentt is part of the build through add_subdirectory.
#
# Example:
#   find_package(gentt REQUIRED)
#   gentt_add_kernels(my_kernels SPECS specs/a.json specs/b.json ISA avx512 avx2)
#   target_link_libraries(app PRIVATE my_kernels gentt::runtime)
#   # app calls a_avx512(in, out) or a_avx2(in, out) after checking the CPU.

include_guard(GLOBAL)
cmake_minimum_required(VERSION 3.25)

# In gentt's own build tree, give the generator the same name it has after install.
if(TARGET gentt-gen AND NOT TARGET gentt::gentt-gen)
  add_executable(gentt::gentt-gen ALIAS gentt-gen)
endif()

# _gentt_isa_compile_options(<isa> <vector_bits> <out_var>): the compiler flags a generated
# source for <isa> needs (empty for ISAs the baseline compiler handles).
function(_gentt_isa_compile_options isa vector_bits out_var)
  # Generated kernels are built at -O3 whatever the build type: the scalar backend's lane loops
  # only vectorize there (about 5x faster than -O2 on x86-64), and -O3 never hurts the SIMD ones.
  set(opts -O3)
  if(isa STREQUAL "avx512")
    list(APPEND opts -mavx512f -mavx512bw -mavx512vl -mavx512vbmi)
  elseif(isa STREQUAL "avx512skx")
    list(APPEND opts -mavx512f -mavx512bw -mavx512vl)
  elseif(isa STREQUAL "avx2")
    list(APPEND opts -mavx2)
  elseif(isa STREQUAL "sve" OR isa STREQUAL "sve2")
    list(APPEND opts -march=armv8.2-a+${isa} -msve-vector-bits=${vector_bits})
  endif()
  set(${out_var} "${opts}" PARENT_SCOPE)
endfunction()

function(gentt_add_kernels target)
  set(_where "gentt_add_kernels(${target})")
  # The ISAs gentt-gen knows, as spelled by the spec's "isa" field and the CLI's --isa. (Set
  # here, not at file scope: functions are global, but a variable set where this file is
  # included is not seen from a consumer's directory when gentt is an add_subdirectory.)
  set(GENTT_KNOWN_ISAS avx512 avx512skx avx2 sve sve2 neon sunway scalar)
  cmake_parse_arguments(PARSE_ARGV 1 GAK "" "VECTOR_BITS;OUTPUT_DIR" "SPECS;ISA")

  # ---- validate the arguments -----------------------------------------------------------------
  if(GAK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${_where}: unknown argument(s) '${GAK_UNPARSED_ARGUMENTS}'. "
      "Expected: SPECS <spec.json>... ISA <isa>... [VECTOR_BITS <n>] [OUTPUT_DIR <dir>].")
  endif()
  if(GAK_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${_where}: argument(s) ${GAK_KEYWORDS_MISSING_VALUES} given without a value.")
  endif()
  if(TARGET ${target})
    message(FATAL_ERROR "${_where}: a target named '${target}' already exists.")
  endif()
  if(NOT GAK_SPECS)
    message(FATAL_ERROR "${_where}: SPECS is missing: give at least one spec file, "
      "e.g. SPECS specs/my_kernel.json.")
  endif()
  string(REPLACE ";" " " _known "${GENTT_KNOWN_ISAS}")
  if(NOT GAK_ISA)
    message(FATAL_ERROR "${_where}: ISA is missing: give one or more of ${_known}, "
      "e.g. ISA avx2.")
  endif()
  list(REMOVE_DUPLICATES GAK_ISA)
  foreach(isa IN LISTS GAK_ISA)
    if(NOT isa IN_LIST GENTT_KNOWN_ISAS)
      message(FATAL_ERROR "${_where}: ISA '${isa}' is unknown; the ISAs are: ${_known}.")
    endif()
  endforeach()
  if(DEFINED GAK_VECTOR_BITS AND NOT GAK_VECTOR_BITS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "${_where}: VECTOR_BITS '${GAK_VECTOR_BITS}' is not a positive integer.")
  endif()
  foreach(isa IN ITEMS sve sve2)
    if(isa IN_LIST GAK_ISA AND NOT DEFINED GAK_VECTOR_BITS)
      message(FATAL_ERROR "${_where}: ISA ${isa} needs VECTOR_BITS (the SVE vector length the kernels "
        "are generated and compiled for, e.g. VECTOR_BITS 512).")
    endif()
  endforeach()

  # ---- the generator ----------------------------------------------------------------------------
  # COMMAND and DEPENDS need a real (non-alias) target name to get both the target-level
  # dependency (build gentt-gen first) and the file-level one (regenerate when it changes).
  if(GENTT_GENERATOR)
    if(NOT EXISTS "${GENTT_GENERATOR}")
      message(FATAL_ERROR "${_where}: GENTT_GENERATOR '${GENTT_GENERATOR}' does not exist.")
    endif()
    set(_gen "${GENTT_GENERATOR}")
    set(_gen_dep "${GENTT_GENERATOR}")
  elseif(TARGET gentt::gentt-gen)
    get_target_property(_aliased gentt::gentt-gen ALIASED_TARGET)
    if(_aliased)
      set(_gen ${_aliased})
      set(_gen_dep ${_aliased})
    else()  # imported (find_package): depend on the installed file
      set(_gen gentt::gentt-gen)
      set(_gen_dep "$<TARGET_FILE:gentt::gentt-gen>")
    endif()
  elseif(TARGET gentt-gen)
    set(_gen gentt-gen)
    set(_gen_dep gentt-gen)
  else()
    message(FATAL_ERROR "${_where}: the generator gentt-gen is not known here. Call "
      "find_package(gentt REQUIRED) (installed gentt) or add_subdirectory(<gentt source dir>) "
      "before gentt_add_kernels(), or set GENTT_GENERATOR to a gentt-gen executable.")
  endif()

  # ---- output directory -------------------------------------------------------------------------
  if(DEFINED GAK_OUTPUT_DIR)
    cmake_path(ABSOLUTE_PATH GAK_OUTPUT_DIR BASE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}"
      NORMALIZE OUTPUT_VARIABLE _out_dir)
  else()
    set(_out_dir "${CMAKE_CURRENT_BINARY_DIR}/gentt_kernels/${target}")
  endif()
  file(MAKE_DIRECTORY "${_out_dir}")

  list(LENGTH GAK_ISA _n_isas)
  # VECTOR_BITS applies to the ISAs whose width is configurable (sve, sve2, sunway) only, so that
  # e.g. ISA avx512 sve VECTOR_BITS 256 works.
  foreach(isa IN LISTS GAK_ISA)
    set(_vector_bits_args_${isa} "")
    if(DEFINED GAK_VECTOR_BITS AND isa MATCHES "^(sve|sve2|sunway)$")
      set(_vector_bits_args_${isa} --vector-bits ${GAK_VECTOR_BITS})
    endif()
  endforeach()

  # ---- one custom command per (spec, ISA) -------------------------------------------------------
  set(_sources "")
  set(_stems "")
  foreach(spec IN LISTS GAK_SPECS)
    cmake_path(ABSOLUTE_PATH spec BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE
      OUTPUT_VARIABLE _spec)
    get_source_file_property(_spec_generated "${_spec}" GENERATED)
    if(NOT EXISTS "${_spec}" AND NOT _spec_generated)
      message(FATAL_ERROR "${_where}: spec file '${spec}' not found (looked for '${_spec}').")
    endif()
    cmake_path(GET _spec STEM LAST_ONLY _stem)
    if(_stem IN_LIST _stems)
      message(FATAL_ERROR "${_where}: two specs have the file name '${_stem}.json'; their "
        "generated sources would collide. Rename one, or use two gentt_add_kernels() targets.")
    endif()
    list(APPEND _stems "${_stem}")

    foreach(isa IN LISTS GAK_ISA)
      set(_cpp "${_out_dir}/${_stem}.${isa}.cpp")
      set(_suffix_args "")
      if(_n_isas GREATER 1)
        set(_suffix_args --name-suffix _${isa})
      endif()
      add_custom_command(
        OUTPUT "${_cpp}"
        COMMAND ${_gen} generate "${_spec}" --isa ${isa} ${_vector_bits_args_${isa}} ${_suffix_args}
                -o "${_cpp}"
        DEPENDS "${_spec}" ${_gen_dep}
        COMMENT "gentt: generating ${target}/${_stem}.${isa}.cpp"
        VERBATIM)
      _gentt_isa_compile_options(${isa} "${GAK_VECTOR_BITS}" _opts)
      if(_opts)
        set_source_files_properties("${_cpp}" PROPERTIES COMPILE_OPTIONS "${_opts}")
      endif()
      list(APPEND _sources "${_cpp}")
    endforeach()
  endforeach()

  # ---- the library ------------------------------------------------------------------------------
  add_library(${target} STATIC ${_sources})
  set_target_properties(${target} PROPERTIES
    LINKER_LANGUAGE CXX
    GENTT_KERNEL_SOURCES "${_sources}"
    GENTT_KERNEL_ISAS "${GAK_ISA}")
  if(TARGET gentt::runtime)
    target_link_libraries(${target} PUBLIC gentt::runtime)
  elseif(TARGET gentt_runtime)
    target_link_libraries(${target} PUBLIC gentt_runtime)
  endif()
endfunction()
