# TMA tensor copies (sm_90a) under smemlab run: tests/run/tma.cu and tests/hw/tma/tma_layout.cu
# against the H200's outputs (tests/run/h200-tma.txt, h200-tma-layout.txt.gz), the layout hazard,
# tests/run/tma_bad.cu's located refusals; built by the test with nvcc; skipped (77) without nvcc.
smemlab_test(test_tma SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tma.c)
set_tests_properties(test_tma PROPERTIES TIMEOUT 600)
