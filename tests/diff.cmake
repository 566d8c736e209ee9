# The differential suite (tests/diff/README.md): every instruction the emulator accepts against the
# H100's outputs. diffgen writes the kernels and inputs for the GPU and packs its outputs;
# test_diff replays every case on the emulator and compares bit for bit (no GPU needed).
set(SMEMLAB_DIFF_SRC ${CMAKE_CURRENT_LIST_DIR}/diff/cases.c ${CMAKE_CURRENT_LIST_DIR}/diff/combos.c)
add_executable(diffgen ${CMAKE_CURRENT_LIST_DIR}/diff/diffgen.c ${SMEMLAB_DIFF_SRC})
target_compile_options(diffgen PRIVATE ${SMEMLAB_WARN})
target_compile_definitions(diffgen PRIVATE _POSIX_C_SOURCE=200809L)
target_link_libraries(diffgen PRIVATE m)
smemlab_test(test_diff SOURCES ${CMAKE_CURRENT_LIST_DIR}/diff/test_diff.c ${SMEMLAB_DIFF_SRC})
# A runaway loop: the memory of the run does not grow with the trip count; the budget names the place.
smemlab_test(test_runaway SOURCES ${CMAKE_CURRENT_LIST_DIR}/diff/test_runaway.c)
# The emulator's global memory: regions, placed variables, parameters, faults.
smemlab_test(test_global SOURCES ${CMAKE_CURRENT_LIST_DIR}/diff/test_global.c)
