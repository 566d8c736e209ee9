# The CUDA runtime library of `smemlab run`: build/runtime/libcudart.so.13, from src/runtime/*.c and
# the library (which is therefore built position-independent). The CLI puts build/runtime/ first on
# the program's LD_LIBRARY_PATH; the version script gives every CUDA symbol the version node
# programs built by CUDA 13 ask for (cudaMalloc@libcudart.so.13) and hides everything else.
file(GLOB SMEMLAB_RUNTIME_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/*.c)
add_library(smemlab_cudart SHARED ${SMEMLAB_RUNTIME_SRC})
target_link_libraries(smemlab_cudart PRIVATE smemlab_lib pthread)
target_include_directories(smemlab_cudart PRIVATE ${CMAKE_SOURCE_DIR}/include ${CMAKE_SOURCE_DIR}/src)
# no sibling calls: the sanitizer names the call a program made by the outermost frame of ours in a
# backtrace (rt_sanitize.c), which a tail call would replace by a static function's
target_compile_options(smemlab_cudart PRIVATE ${SMEMLAB_WARN} -fno-optimize-sibling-calls)
target_compile_definitions(smemlab_cudart PRIVATE _POSIX_C_SOURCE=200809L)
# elfutils' libdwfl names the program's call sites file:line from its debug information (Debian
# libdw-dev, scripts/deps.sh); without it the sites are binary+0xoffset
find_path(SMEMLAB_LIBDWFL_INCLUDE elfutils/libdwfl.h)
find_library(SMEMLAB_LIBDW dw)
if(SMEMLAB_LIBDWFL_INCLUDE AND SMEMLAB_LIBDW)
  target_compile_definitions(smemlab_cudart PRIVATE SMEMLAB_HAVE_LIBDW=1)
  target_include_directories(smemlab_cudart PRIVATE ${SMEMLAB_LIBDWFL_INCLUDE})
  target_link_libraries(smemlab_cudart PRIVATE ${SMEMLAB_LIBDW})
else()
  message(WARNING "libdw (elfutils, Debian libdw-dev) not found: smemlab run names call sites "
                  "binary+offset, not file:line (scripts/deps.sh installs it)")
endif()
target_link_options(smemlab_cudart PRIVATE
  -Wl,--version-script=${CMAKE_SOURCE_DIR}/src/runtime/libcudart.map -Wl,--no-undefined)
set_target_properties(smemlab_cudart PROPERTIES
  OUTPUT_NAME cudart SOVERSION 13 C_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/runtime
  LINK_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/libcudart.map)
# the CLI finds it beside itself (build/runtime/); build it whenever the CLI is built
add_dependencies(smemlab smemlab_cudart)

# Its cuBLAS stand-ins (src/runtime/cublas/): build/runtime/libcublas.so.13 and libcublasLt.so.13,
# so that a program linked with -lcublas -lcublasLt loads and runs; their GEMMs and level-1/2
# routines compute on the CPU with OpenBLAS (Debian's libopenblas-dev, scripts/deps.sh), linked
# into them only (never the CLI); the rest stops the program, named (exit 3). They reach the
# runtime (device memory, the report, the stop) through its __cudaSmemlab* exports (rt_library.c).
find_path(SMEMLAB_CBLAS_INCLUDE cblas.h PATH_SUFFIXES openblas-pthread openblas
  PATHS /usr/include/${CMAKE_LIBRARY_ARCHITECTURE} NO_DEFAULT_PATH)
find_library(SMEMLAB_OPENBLAS openblas)
if(NOT SMEMLAB_CBLAS_INCLUDE OR NOT SMEMLAB_OPENBLAS)
  message(FATAL_ERROR "OpenBLAS is missing (the cuBLAS stand-ins compute with it): "
                      "run scripts/deps.sh, or apt-get install libopenblas-dev")
endif()
set(SMEMLAB_CUBLAS_SRC_cublas rt_cublas.c blas_common.c blas_gemm.c blas_level12.c blas_level2x.c
    blas_level3.c blas_level3x.c blas_ex.c)
set(SMEMLAB_CUBLAS_SRC_cublasLt rt_cublaslt.c blas_common.c blas_lt.c)
foreach(lib cublas cublasLt)
  string(TOLOWER ${lib} src)
  list(TRANSFORM SMEMLAB_CUBLAS_SRC_${lib} PREPEND ${CMAKE_SOURCE_DIR}/src/runtime/cublas/)
  add_library(smemlab_${lib} SHARED ${SMEMLAB_CUBLAS_SRC_${lib}}
    ${CMAKE_SOURCE_DIR}/src/runtime/cublas/stubs_${src}.c)
  target_link_libraries(smemlab_${lib} PRIVATE smemlab_cudart ${SMEMLAB_OPENBLAS} m)
  target_include_directories(smemlab_${lib} PRIVATE ${SMEMLAB_CBLAS_INCLUDE})
  target_compile_options(smemlab_${lib} PRIVATE ${SMEMLAB_WARN})
  target_compile_definitions(smemlab_${lib} PRIVATE _POSIX_C_SOURCE=200809L)
  target_link_options(smemlab_${lib} PRIVATE
    -Wl,--version-script=${CMAKE_SOURCE_DIR}/src/runtime/cublas/lib${lib}.map -Wl,--no-undefined)
  set_target_properties(smemlab_${lib} PROPERTIES
    OUTPUT_NAME ${lib} SOVERSION 13 C_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/runtime
    LINK_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/cublas/lib${lib}.map)
  add_dependencies(smemlab smemlab_${lib})
endforeach()

# Its cuRAND stand-in (src/runtime/curand/): build/runtime/libcurand.so.10, the host API on the
# CPU (the generators and the host library's layouts written there, measured against the H200:
# tests/hw/curand/). The Sobol direction vectors and scramble constants are data of the CUDA
# toolkit's libcurand: the build tool sobol_tables reads them through its host calls and the
# stand-in embeds the file (rand_sobol.c); without the toolkit the Sobol generators stop, named.
file(GLOB SMEMLAB_CURAND_SRC CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/curand/r*.c)
add_library(smemlab_curand SHARED ${SMEMLAB_CURAND_SRC})
find_path(SMEMLAB_CURAND_INCLUDE curand.h PATHS /usr/local/cuda/include
  /usr/local/cuda/targets/${CMAKE_SYSTEM_PROCESSOR}-linux/include)
find_library(SMEMLAB_TOOLKIT_CURAND NAMES curand libcurand.so.10 PATHS /usr/local/cuda/lib64
  /usr/local/cuda/targets/${CMAKE_SYSTEM_PROCESSOR}-linux/lib)
if(SMEMLAB_CURAND_INCLUDE AND SMEMLAB_TOOLKIT_CURAND)
  add_executable(smemlab_sobol_tables ${CMAKE_SOURCE_DIR}/src/runtime/curand/sobol_tables.c)
  target_include_directories(smemlab_sobol_tables PRIVATE ${SMEMLAB_CURAND_INCLUDE})
  target_link_libraries(smemlab_sobol_tables PRIVATE ${SMEMLAB_TOOLKIT_CURAND})
  set(SMEMLAB_SOBOL_BLOB ${CMAKE_BINARY_DIR}/runtime/curand_sobol.bin)
  add_custom_command(OUTPUT ${SMEMLAB_SOBOL_BLOB}
    COMMAND smemlab_sobol_tables ${SMEMLAB_SOBOL_BLOB}
    DEPENDS smemlab_sobol_tables COMMENT "Sobol direction vectors from the toolkit's libcurand")
  add_custom_target(smemlab_sobol_blob DEPENDS ${SMEMLAB_SOBOL_BLOB})
  add_dependencies(smemlab_curand smemlab_sobol_blob)
  set_source_files_properties(${CMAKE_SOURCE_DIR}/src/runtime/curand/rand_sobol.c PROPERTIES
    COMPILE_DEFINITIONS SMEMLAB_SOBOL_BLOB="${SMEMLAB_SOBOL_BLOB}"
    OBJECT_DEPENDS ${SMEMLAB_SOBOL_BLOB})
else()
  message(WARNING "the CUDA toolkit's libcurand was not found: the cuRAND stand-in's Sobol "
                  "generators stop the program")
endif()
# MT19937's jump (2^2048 steps, the distance between its blocks): a polynomial the build tool
# mt19937_jump computes (about 3 s), embedded by rand_mt19937.c
add_executable(smemlab_mt19937_jump ${CMAKE_SOURCE_DIR}/src/runtime/curand/mt19937_jump.c)
target_compile_options(smemlab_mt19937_jump PRIVATE ${SMEMLAB_WARN} -O2)
set(SMEMLAB_MT19937_POLY ${CMAKE_BINARY_DIR}/runtime/curand_mt19937_jump.bin)
add_custom_command(OUTPUT ${SMEMLAB_MT19937_POLY}
  COMMAND smemlab_mt19937_jump ${SMEMLAB_MT19937_POLY}
  DEPENDS smemlab_mt19937_jump COMMENT "MT19937's jump polynomial")
add_custom_target(smemlab_mt19937_poly DEPENDS ${SMEMLAB_MT19937_POLY})
add_dependencies(smemlab_curand smemlab_mt19937_poly)
set_source_files_properties(${CMAKE_SOURCE_DIR}/src/runtime/curand/rand_mt19937.c PROPERTIES
  COMPILE_DEFINITIONS SMEMLAB_MT19937_JUMP="${SMEMLAB_MT19937_POLY}"
  COMPILE_OPTIONS -O2 OBJECT_DEPENDS ${SMEMLAB_MT19937_POLY})
# MTGP32's parameter sets: the toolkit's curand_mtgp32dc_p_11213.h (data), included by rand_mtgp.c
if(SMEMLAB_CURAND_INCLUDE)
  target_include_directories(smemlab_curand SYSTEM PRIVATE ${SMEMLAB_CURAND_INCLUDE})
  target_compile_definitions(smemlab_curand PRIVATE SMEMLAB_HAVE_MTGP32=1)
endif()
target_link_libraries(smemlab_curand PRIVATE smemlab_cudart m)
target_compile_options(smemlab_curand PRIVATE ${SMEMLAB_WARN} -fno-optimize-sibling-calls)
target_compile_definitions(smemlab_curand PRIVATE _POSIX_C_SOURCE=200809L)
target_link_options(smemlab_curand PRIVATE
  -Wl,--version-script=${CMAKE_SOURCE_DIR}/src/runtime/curand/libcurand.map -Wl,--no-undefined)
set_target_properties(smemlab_curand PROPERTIES
  OUTPUT_NAME curand SOVERSION 10 C_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/runtime
  LINK_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/curand/libcurand.map)
add_dependencies(smemlab smemlab_curand)

# Its driver stand-in (src/runtime/driver/): build/runtime/libcuda.so.1, for programs linked with
# -lcuda. The calls smemlab implements forward to libcudart.so.13 (rt_driver.c: one state with the
# runtime); every other name of cuda.h stops the program, named (exit 3).
add_library(smemlab_cuda SHARED ${CMAKE_SOURCE_DIR}/src/runtime/driver/libcuda.c
  ${CMAKE_SOURCE_DIR}/src/runtime/driver/libcuda_stubs.c)
target_link_libraries(smemlab_cuda PRIVATE smemlab_cudart)
target_compile_options(smemlab_cuda PRIVATE ${SMEMLAB_WARN})
target_link_options(smemlab_cuda PRIVATE
  -Wl,--version-script=${CMAKE_SOURCE_DIR}/src/runtime/driver/libcuda.map -Wl,--no-undefined)
set_target_properties(smemlab_cuda PROPERTIES
  OUTPUT_NAME cuda SOVERSION 1 C_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/runtime
  LINK_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/driver/libcuda.map)
add_dependencies(smemlab smemlab_cuda)

# Its nvJitLink stand-in (src/runtime/jitlink/): build/runtime/libnvJitLink.so.13, which links PTX
# as the driver stand-in's cuLink* do (rt_link.c: ptxas's cubin, its PTX kept for when it is
# loaded), so that Numba-CUDA's kernels, linked with nvJitLink, run (docs/run.md).
add_library(smemlab_nvjitlink SHARED ${CMAKE_SOURCE_DIR}/src/runtime/jitlink/libnvjitlink.c)
target_link_libraries(smemlab_nvjitlink PRIVATE smemlab_cudart)
target_compile_options(smemlab_nvjitlink PRIVATE ${SMEMLAB_WARN})
target_link_options(smemlab_nvjitlink PRIVATE
  -Wl,--version-script=${CMAKE_SOURCE_DIR}/src/runtime/jitlink/libnvJitLink.map -Wl,--no-undefined)
set_target_properties(smemlab_nvjitlink PROPERTIES
  OUTPUT_NAME nvJitLink SOVERSION 13 C_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/runtime
  LINK_DEPENDS ${CMAKE_SOURCE_DIR}/src/runtime/jitlink/libnvJitLink.map)
add_dependencies(smemlab smemlab_nvjitlink)
