# The H100's tensor-core sums (src/emu/tc_numeric.c) against every register of
# tests/hw/h100-mma-fp.txt (tests/hw/mma/mma_fp.cu on the H100); needs no GPU and no nvcc.
smemlab_test(test_tc_numeric SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tc_numeric.c)
