# smemlab run on whole programs (tests/run/, tests/hw/src/), built by the test with nvcc -cudart
# shared; skipped (77) without nvcc. The programs of tests/hw/src must count as the H100 did.
smemlab_test(test_run SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_run.c)
set_tests_properties(test_run PROPERTIES TIMEOUT 900)
