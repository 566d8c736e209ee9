# Blocks on several threads give the same report as one; one block stands for all only when
# proven (tests/parallel/test_parallel.c: hand-written PTX, no nvcc).
smemlab_test(test_parallel SOURCES ${CMAKE_CURRENT_LIST_DIR}/parallel/test_parallel.c)
