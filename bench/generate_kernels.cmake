# Generates one shard of a benchmark set's kernels for one ISA (run by bench/CMakeLists.txt):
#   cmake -DGEN=<gentt-gen> -DSPEC=<spec_i.json> -DISA=<isa> -DOUT=<file.cpp> -P generate_kernels.cmake
#
# Runs `gentt-gen generate SPEC --isa ISA --name-suffix _ISA -o OUT` when this gentt-gen has a
# backend for ISA (`gentt-gen list-isas` says "implemented") and the shard holds kernels. An ISA
# of the form <isa>_<bits> (avx512_256: ymm blocks) adds --vector-bits <bits>.
# Otherwise OUT is a placeholder without kernels. When the backend is missing it defines
#   extern "C" const char gentt_bench_unavailable[];   // weak: why there are no kernels
# so the module still builds, gentt_bench reports the reason, and a backend that appears later
# is picked up by the next build (OUT depends on gentt-gen) without reconfiguring. An empty
# shard (a set with fewer cases than shards) defines nothing.
foreach(var GEN SPEC ISA OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "generate_kernels.cmake: -D${var}=... is missing")
  endif()
endforeach()

set(_base_isa ${ISA})
set(_bits_args "")
if(ISA MATCHES "^(.*)_([0-9]+)$")
  set(_base_isa ${CMAKE_MATCH_1})
  set(_bits_args --vector-bits ${CMAKE_MATCH_2})
endif()
execute_process(COMMAND "${GEN}" list-isas OUTPUT_VARIABLE _isas RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "generate_kernels.cmake: '${GEN} list-isas' failed (${_rc})")
endif()

set(_text "")
if(NOT _isas MATCHES "(^|\n)${_base_isa} [^\n]*backend: implemented")
  string(CONCAT _text "// Placeholder written by bench/generate_kernels.cmake: no kernels.\n"
            "extern \"C\" __attribute__((weak)) const char gentt_bench_unavailable[] =\n"
            "    \"this gentt-gen has no ${ISA} backend yet (gentt-gen list-isas)\";\n")
else()
  file(READ "${SPEC}" _spec)
  if(_spec MATCHES "^{\"kernels\": \\[\\]}")
    string(CONCAT _text "// Placeholder written by bench/generate_kernels.cmake: this shard holds no kernel.\n")
  endif()
endif()

if(_text STREQUAL "")
  execute_process(COMMAND "${GEN}" generate "${SPEC}" --isa ${_base_isa} ${_bits_args} --name-suffix _${ISA} -o "${OUT}"
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "generate_kernels.cmake: gentt-gen failed (${_rc}) on ${SPEC} for ${ISA}")
  endif()
else()
  # Rewrite only on change, so an unchanged placeholder is not recompiled.
  set(_old "")
  if(EXISTS "${OUT}")
    file(READ "${OUT}" _old)
  endif()
  if(NOT _old STREQUAL _text)
    file(WRITE "${OUT}" "${_text}")
  endif()
endif()
