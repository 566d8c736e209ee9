# sol.cmake: the CUB DeviceReduce wrapper that `smemlab bench reduce` times beside our kernel:
# src/gpu/sol_cub.cu -> build/libsmemlab_cub.so (nvcc, CUDA runtime linked statically), loaded with
# dlopen at run time. Built only when nvcc is found (kernels.cmake looks for it); without it the
# bench leaves CUB out and says so.
if(SMEMLAB_NVCC)
  set(SMEMLAB_CUB_LIB ${CMAKE_BINARY_DIR}/libsmemlab_cub.so)
  add_custom_command(OUTPUT ${SMEMLAB_CUB_LIB}
    COMMAND ${SMEMLAB_NVCC} -O3 -shared -Xcompiler -fPIC -Werror all-warnings
            -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
            -gencode arch=compute_80,code=sm_80
            -o ${SMEMLAB_CUB_LIB} ${CMAKE_SOURCE_DIR}/src/gpu/sol_cub.cu
    DEPENDS ${CMAKE_SOURCE_DIR}/src/gpu/sol_cub.cu
    COMMENT "nvcc src/gpu/sol_cub.cu -> libsmemlab_cub.so (CUB DeviceReduce for bench reduce)" VERBATIM)
  add_custom_target(smemlab_cub ALL DEPENDS ${SMEMLAB_CUB_LIB})
endif()
