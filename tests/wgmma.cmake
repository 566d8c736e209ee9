# wgmma (sm_90a) under smemlab run: tests/run/wgmma.cu against the H200's outputs
# (tests/run/h200-wgmma.txt, the dump beside it), tests/run/wgmma_bad.cu's located refusals;
# built by the test with nvcc; skipped (77) without nvcc.
smemlab_test(test_wgmma SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_wgmma.c)
set_tests_properties(test_wgmma PROPERTIES TIMEOUT 600)
