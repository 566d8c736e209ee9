# The CUDA runtime library of `smemlab run`: build/runtime/libcudart.so.13, from src/runtime/*.c and
# the library (which is therefore built position-independent). The CLI puts build/runtime/ first on
# the program's LD_LIBRARY_PATH; the version script gives every CUDA symbol the version node
# programs built by CUDA 13 ask for (cudaMalloc@libcudart.so.13) and hides everything else.
file(GLOB SMEMLAB_RUNTIME_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/*.c)
add_library(smemlab_cudart SHARED ${SMEMLAB_RUNTIME_SRC})
target_link_libraries(smemlab_cudart PRIVATE smemlab_lib pthread)
target_include_directories(smemlab_cudart PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/src)
target_compile_options(smemlab_cudart PRIVATE ${SMEMLAB_WARN})
target_compile_definitions(smemlab_cudart PRIVATE _POSIX_C_SOURCE=200809L)
target_link_options(smemlab_cudart PRIVATE
  -Wl,--version-script=${CMAKE_SOURCE_DIR}/src/runtime/libcudart.map -Wl,--no-undefined)
set_target_properties(smemlab_cudart PROPERTIES
  OUTPUT_NAME cudart SOVERSION 13 C_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/runtime
  LINK_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/libcudart.map)
# the CLI finds it beside itself (build/runtime/); build it whenever the CLI is built
add_dependencies(smemlab smemlab_cudart)
