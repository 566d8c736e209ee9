# The SASS decoder (vectors and mergelike.cu's cubin against the H100's disassembly) and the census
# (tests/sass/README.md). The cubin parts need nvcc and ptxas 13.0.88 (as CI has); no GPU.
smemlab_test(test_sass SOURCES ${CMAKE_CURRENT_LIST_DIR}/test_sass.c)
smemlab_cli_test(cli_sass sass_cli.sh)
