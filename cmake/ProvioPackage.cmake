# What `cmake --install` adds for other projects and for sites: the CMake package (provioConfig),
# the pkg-config file (provio.pc) and an Lmod module file. Tested by tests/packaging.
include(CMakePackageConfigHelpers)
set(provio_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/provio)
install(EXPORT provioTargets NAMESPACE provio:: DESTINATION ${provio_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/provioConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/provioConfig.cmake.in
  INSTALL_DESTINATION ${provio_cmake_dir}
  PATH_VARS PROVIO_PLUGIN_DIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
# The preload library's file name is only known at generation time.
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/package/provioConfig.cmake
  INPUT ${PROJECT_BINARY_DIR}/package/provioConfig.cmake.in)
# 0.x: a minor version may break the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/package/provioConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/package/provioConfig.cmake
              ${PROJECT_BINARY_DIR}/package/provioConfigVersion.cmake
        DESTINATION ${provio_cmake_dir})

set(pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH PC_TO_PREFIX /prefix/${pc_dir} /prefix)
string(REGEX REPLACE "/$" "" PC_TO_PREFIX "${PC_TO_PREFIX}")
set(PRELOAD_NAME "$<TARGET_FILE_NAME:provio_posix>")
configure_file(${PROJECT_SOURCE_DIR}/cmake/provio.pc.in ${PROJECT_BINARY_DIR}/package/provio.pc.in @ONLY)
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/package/provio.pc INPUT ${PROJECT_BINARY_DIR}/package/provio.pc.in)
install(FILES ${PROJECT_BINARY_DIR}/package/provio.pc DESTINATION ${pc_dir})

# <prefix>/share/provio/modulefiles/provio/<version>.lua: `module use <prefix>/share/provio/modulefiles`.
configure_file(${PROJECT_SOURCE_DIR}/packaging/lmod/provio.lua.in ${PROJECT_BINARY_DIR}/package/provio.lua @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/package/provio.lua
        DESTINATION ${CMAKE_INSTALL_DATADIR}/provio/modulefiles/provio RENAME ${PROJECT_VERSION}.lua)
