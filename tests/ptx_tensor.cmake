# The PTX parser on the matrix, barrier-object and tensor-core instructions
smemlab_test(test_ptx_tensor SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_ptx_tensor.c)
