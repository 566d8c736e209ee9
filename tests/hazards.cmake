# Hazards: the rules on hand-made event streams; the kernels of tests/hazards compiled by nvcc (skipped
# without nvcc); no false alarm on the correct kernels of kernels/ (skipped while kernels/ is absent).
smemlab_test(test_hazards SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_hazards.c)
smemlab_test(test_hazards_cu SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_hazards_cu.c)
add_dependencies(test_hazards_cu smemlab)
smemlab_test(test_hazards_kernels SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_hazards_kernels.c)
