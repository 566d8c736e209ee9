# kernels.cmake: builds every kernels/*.cu into build/kernels/<name>.fatbin (SASS for sm_90 and
# sm_80, PTX for compute_90 so newer GPUs JIT it) and build/kernels/<name>.ptx (what the analyzer
# reads), when nvcc is found. Without nvcc the build still succeeds; `smemlab bench` then says the
# kernels are missing (exit 4). nvcc warnings are errors, as for our C code.
find_program(SMEMLAB_NVCC nvcc HINTS ENV CUDA_HOME ENV CUDA_PATH PATH_SUFFIXES bin)
file(GLOB SMEMLAB_KERNEL_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/kernels/*.cu)
set(SMEMLAB_KERNEL_DIR ${CMAKE_BINARY_DIR}/kernels)

if(SMEMLAB_NVCC AND SMEMLAB_KERNEL_SOURCES)
  message(STATUS "smemlab: building kernels/ with ${SMEMLAB_NVCC}")
  set(SMEMLAB_NVCC_FLAGS -lineinfo -Werror all-warnings
      -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
      -gencode arch=compute_80,code=sm_80)
  set(outputs)
  foreach(src ${SMEMLAB_KERNEL_SOURCES})
    get_filename_component(stem ${src} NAME_WE)
    set(fatbin ${SMEMLAB_KERNEL_DIR}/${stem}.fatbin)
    set(ptx ${SMEMLAB_KERNEL_DIR}/${stem}.ptx)
    add_custom_command(OUTPUT ${fatbin}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${SMEMLAB_KERNEL_DIR}
      COMMAND ${SMEMLAB_NVCC} -fatbin ${SMEMLAB_NVCC_FLAGS} -o ${fatbin} ${src}
      DEPENDS ${src} COMMENT "nvcc kernels/${stem}.cu -> kernels/${stem}.fatbin" VERBATIM)
    add_custom_command(OUTPUT ${ptx}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${SMEMLAB_KERNEL_DIR}
      COMMAND ${SMEMLAB_NVCC} -ptx -arch=sm_90 -lineinfo -Werror all-warnings -o ${ptx} ${src}
      DEPENDS ${src} COMMENT "nvcc kernels/${stem}.cu -> kernels/${stem}.ptx" VERBATIM)
    list(APPEND outputs ${fatbin} ${ptx})
  endforeach()
  add_custom_target(smemlab_kernels ALL DEPENDS ${outputs})
  add_dependencies(smemlab smemlab_kernels)
else()
  message(STATUS "smemlab: nvcc not found: kernels/ not built (smemlab bench will say so)")
endif()
