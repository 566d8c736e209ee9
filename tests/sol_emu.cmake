# The speed-of-light kernels on the CPU (issue 34): kernels/sol_reduce.cu's bulk-copy and register
# sums under `smemlab run` (the register form is the bench's default, the bulk form --form bulk), every path of each (tests/run/sol_reduce.cu); built by the test with
# nvcc; skipped (77) without nvcc.
smemlab_test(test_sol_emu SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_sol_emu.c)
set_tests_properties(test_sol_emu PROPERTIES TIMEOUT 600)
