# install.cmake: `cmake --install build --prefix P` (or `make install PREFIX=P`) and `cpack -G DEB`.
# The layout: P/bin/smemlab; its private files in P/lib/smemlab/ (the runtime stand-ins of
# `smemlab run`, the built kernels/ of `tour`), found from the CLI's own place
# (bin/../lib/smemlab); the library for C programs: headers, libsmemlab.a, smemlab.pc and the CMake
# package (find_package(smemlab): the target smemlab::smemlab and the functions of SmemlabCI.cmake).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(SMEMLAB_PKGLIB lib/smemlab) # fixed: bin/../lib/smemlab is where the CLI looks (cli_util.c)
set(SMEMLAB_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/smemlab)

install(TARGETS smemlab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS smemlab_cudart smemlab_cublas smemlab_cublasLt smemlab_curand
  LIBRARY DESTINATION ${SMEMLAB_PKGLIB} NAMELINK_SKIP)
if(TARGET smemlab_kernels)
  install(DIRECTORY ${SMEMLAB_KERNEL_DIR}/ DESTINATION ${SMEMLAB_PKGLIB}/kernels
    FILES_MATCHING PATTERN "*.fatbin" PATTERN "*.ptx")
endif()

# the library: its include directory is the install's, not the source tree's
set_target_properties(smemlab_lib PROPERTIES EXPORT_NAME smemlab)
target_include_directories(smemlab_lib INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(TARGETS smemlab_lib EXPORT smemlabTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/smemlab DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT smemlabTargets NAMESPACE smemlab:: DESTINATION ${SMEMLAB_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/smemlabConfig.cmake.in
  ${CMAKE_BINARY_DIR}/package/smemlabConfig.cmake INSTALL_DESTINATION ${SMEMLAB_CMAKEDIR}
  PATH_VARS CMAKE_INSTALL_BINDIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/package/smemlabConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/package/smemlabConfig.cmake
  ${CMAKE_BINARY_DIR}/package/smemlabConfigVersion.cmake
  ${CMAKE_CURRENT_LIST_DIR}/SmemlabCI.cmake DESTINATION ${SMEMLAB_CMAKEDIR})
# pkg-config: the libraries the static archive needs after it; the prefix relative to the .pc
# file, so that any --prefix (and the .deb's /usr) is right
file(RELATIVE_PATH SMEMLAB_PC_UP /x/${CMAKE_INSTALL_LIBDIR}/pkgconfig /x)
configure_file(${CMAKE_CURRENT_LIST_DIR}/smemlab.pc.in ${CMAKE_BINARY_DIR}/package/smemlab.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/package/smemlab.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The Debian package: what `cmake --install` puts under /usr. Its dependencies are libc's and, where
# the runtime links it (runtime.cmake: the sanitizer's call sites), elfutils' libdw; the CUDA
# toolkit is needed only to build the programs it runs.
set(CPACK_PACKAGE_NAME smemlab)
set(CPACK_PACKAGE_VENDOR smemlab)
set(CPACK_PACKAGE_CONTACT "smemlab maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "CUDA shared-memory lab: bank conflicts, races and memory errors of CUDA programs on a CPU")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS OFF)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.31)")
if(SMEMLAB_LIBDW)
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libdw1")
endif()
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_GENERATOR DEB)
include(CPack)
