# smemlab run on programs that call cuBLAS and cuRAND (tests/run/cublas.cu, ...): the stand-in
# libraries compute on the CPU and the programs reach their own checks; skipped (77) without nvcc.
smemlab_test(test_run_libs SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_run_libs.c)
set_tests_properties(test_run_libs PROPERTIES TIMEOUT 600)
# the narrow float formats the stand-in rounds tensor-core inputs and outputs to (no nvcc needed)
smemlab_test(test_blas_formats SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_blas_formats.c)
target_link_libraries(test_blas_formats PRIVATE m)
# the cuRAND stand-in against the H200's cuRAND (tests/hw/curand/golden/): the dump program run
# under smemlab run, every record compared; skipped (77) without nvcc
smemlab_test(test_curand_golden SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_curand_golden.c)
target_link_libraries(test_curand_golden PRIVATE m)
set_tests_properties(test_curand_golden PROPERTIES TIMEOUT 600)
# int8, complex and grouped GEMMs against a plain reference, bad calls' statuses against the H200's
# (tests/hw/cublas/), repeats proven by bytes (tests/run/cublas_ex.cu); skipped (77) without nvcc
smemlab_test(test_cublas_ex SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_cublas_ex.c)
set_tests_properties(test_cublas_ex PROPERTIES TIMEOUT 600)
