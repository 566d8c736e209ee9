# Thread-block clusters (sm_90a) under smemlab run: tests/run/cluster_dsmem.cu against the H200's
# outputs and Nsight Compute's counters (tests/run/h200-cluster-dsmem.txt, -ncu.csv),
# tests/run/cluster_bad.cu's located refusals; built by the test with nvcc; skipped (77) without nvcc.
smemlab_test(test_cluster SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cluster.c)
set_tests_properties(test_cluster PROPERTIES TIMEOUT 600)
