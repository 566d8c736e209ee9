# SmemlabCI.cmake: smemlab in a CUDA project's tests (installed with the CMake package:
# find_package(smemlab) includes it). Each function registers a CTest; a test fails (exit 1) on
# the checks asked for, and writes SARIF, JUnit XML and a Markdown summary to
# ${SMEMLAB_OUTPUT_DIR}/<name>.{sarif,xml,md} (default: <build>/smemlab/) for the CI to upload.
#
#   smemlab_add_test(NAME <name> TARGET <cuda executable> [ARGS ...]
#                    [FAIL_ON conflict hazard memory-error] [BASELINE <report.json>]
#                    [OPTIONS <more smemlab run options>...])
#     builds TARGET with the shared CUDA runtime (CUDA_RUNTIME_LIBRARY Shared) and runs it
#     under `smemlab run`: every launch emulated on the CPU, priced and checked. The
#     target must carry PTX for compute_90 (CUDA_ARCHITECTURES 90, the default 90 = sm_90 + PTX).
#   smemlab_analyze(NAME <name> SOURCE <file.cu> [KERNEL <name>] [BLOCK x,y,z] [GRID x,y,z]
#                   [PARAMS NAME=VALUE ...] [FAIL_ON conflict hazard] [BASELINE <report.json>]
#                   [OPTIONS <more smemlab analyze options>...])
#     analyzes one kernel of one file for one launch shape (no program needed).
#
# BASELINE: a committed `--format json` report; the test then fails only on what got worse than it
# (more wavefronts per request at a site, a new hazard or memory error), naming each. It may be
# made by an earlier test: it is read when the test runs.
# Variables: SMEMLAB_EXECUTABLE (the CLI), SMEMLAB_OUTPUT_DIR, SMEMLAB_SOURCE_ROOT (SARIF paths
# relative to it; default the top source folder), SMEMLAB_LINEINFO (default ON: -lineinfo).

if(NOT SMEMLAB_EXECUTABLE)
  find_program(SMEMLAB_EXECUTABLE smemlab)
endif()
# file:line in every report needs the kernels' line tables: -lineinfo for all CUDA code of the
# project (libraries included; it changes no generated code). SMEMLAB_LINEINFO OFF to opt out.
option(SMEMLAB_LINEINFO "Compile the project's CUDA code with -lineinfo (smemlab's file:line)" ON)
if(SMEMLAB_LINEINFO AND NOT CMAKE_CUDA_FLAGS MATCHES "-lineinfo")
  string(APPEND CMAKE_CUDA_FLAGS " -lineinfo")
endif()
# SARIF paths relative to this folder (the repository's root, for code scanning)
if(NOT SMEMLAB_SOURCE_ROOT)
  set(SMEMLAB_SOURCE_ROOT ${CMAKE_SOURCE_DIR})
endif()
if(NOT SMEMLAB_OUTPUT_DIR)
  set(SMEMLAB_OUTPUT_DIR ${CMAKE_BINARY_DIR}/smemlab)
endif()

function(_smemlab_common name fail_on baseline allowed out_var)
  set(args)
  foreach(check IN LISTS fail_on)
    if(NOT check IN_LIST allowed)
      message(FATAL_ERROR "smemlab: ${name}: FAIL_ON ${check}: expected one of ${allowed}")
    endif()
    list(APPEND args --fail-on-${check})
  endforeach()
  if(baseline)
    get_filename_component(baseline ${baseline} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    list(APPEND args --baseline ${baseline})
  endif()
  file(MAKE_DIRECTORY ${SMEMLAB_OUTPUT_DIR})
  list(APPEND args --sarif ${SMEMLAB_OUTPUT_DIR}/${name}.sarif
    --junit ${SMEMLAB_OUTPUT_DIR}/${name}.xml --markdown ${SMEMLAB_OUTPUT_DIR}/${name}.md
    --source-root ${SMEMLAB_SOURCE_ROOT})
  set(${out_var} ${args} PARENT_SCOPE)
endfunction()

function(smemlab_add_test)
  cmake_parse_arguments(PARSE_ARGV 0 SA "" "NAME;TARGET;BASELINE" "ARGS;FAIL_ON;OPTIONS")
  if(NOT SA_NAME OR NOT SA_TARGET)
    message(FATAL_ERROR "smemlab_add_test: NAME and TARGET are required")
  endif()
  if(NOT TARGET ${SA_TARGET})
    message(FATAL_ERROR "smemlab_add_test: ${SA_NAME}: no target ${SA_TARGET}")
  endif()
  if(NOT SMEMLAB_EXECUTABLE)
    message(FATAL_ERROR "smemlab_add_test: no smemlab executable (set SMEMLAB_EXECUTABLE)")
  endif()
  # smemlab's libcudart.so.13 takes the place of CUDA's only when the program loads it
  set_target_properties(${SA_TARGET} PROPERTIES CUDA_RUNTIME_LIBRARY Shared)
  _smemlab_common(${SA_NAME} "${SA_FAIL_ON}" "${SA_BASELINE}" "conflict;hazard;memory-error" out)
  add_test(NAME ${SA_NAME}
    COMMAND ${SMEMLAB_EXECUTABLE} run ${out} ${SA_OPTIONS} -- $<TARGET_FILE:${SA_TARGET}> ${SA_ARGS})
  set_tests_properties(${SA_NAME} PROPERTIES LABELS smemlab)
endfunction()

function(smemlab_analyze)
  cmake_parse_arguments(PARSE_ARGV 0 SA "" "NAME;SOURCE;KERNEL;BLOCK;GRID;BASELINE"
    "PARAMS;FAIL_ON;OPTIONS")
  if(NOT SA_NAME OR NOT SA_SOURCE)
    message(FATAL_ERROR "smemlab_analyze: NAME and SOURCE are required")
  endif()
  if(NOT SMEMLAB_EXECUTABLE)
    message(FATAL_ERROR "smemlab_analyze: no smemlab executable (set SMEMLAB_EXECUTABLE)")
  endif()
  get_filename_component(src ${SA_SOURCE} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  set(args ${src})
  if(SA_KERNEL)
    list(APPEND args --kernel ${SA_KERNEL})
  endif()
  if(SA_BLOCK)
    list(APPEND args --block ${SA_BLOCK})
  endif()
  if(SA_GRID)
    list(APPEND args --grid ${SA_GRID})
  endif()
  foreach(p IN LISTS SA_PARAMS)
    list(APPEND args --param ${p})
  endforeach()
  _smemlab_common(${SA_NAME} "${SA_FAIL_ON}" "${SA_BASELINE}" "conflict;hazard" out)
  add_test(NAME ${SA_NAME} COMMAND ${SMEMLAB_EXECUTABLE} analyze ${args} ${out} ${SA_OPTIONS})
  set_tests_properties(${SA_NAME} PROPERTIES LABELS smemlab)
endfunction()
