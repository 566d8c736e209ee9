# Speed of light (issue 7): the pure parts and the CLI contract anywhere; the product path on a GPU
# (label gpu: exit 77 = skipped without one).
smemlab_test(test_sol SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_sol.c)
smemlab_test(test_sol_gpu SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_sol_gpu.c LABELS gpu)
set_tests_properties(test_sol_gpu PROPERTIES RESOURCE_LOCK gpu)
