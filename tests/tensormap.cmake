# The tensor map of the driver stand-in (src/model/tensormap.c): cuda.h's checks, the encoding, the
# addresses of a box's elements under each swizzle.
smemlab_test(test_tensormap SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_tensormap.c)
