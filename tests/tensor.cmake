# ldmatrix, stmatrix, mma, mbarrier and cp.async groups under the emulator, on programs built with
# nvcc -cudart shared (skipped, 77, without nvcc): the CuTe-style GEMMs of tests/ldsm compute the
# right product and count as the H100 did (tests/hw/h100-ldsm-gemm.csv).
smemlab_test(test_tensor SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tensor.c)
set_tests_properties(test_tensor PROPERTIES TIMEOUT 600)
