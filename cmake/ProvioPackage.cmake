# What `cmake --install` adds for other projects and for sites: the CMake package (provioConfig),
# the pkg-config file (provio.pc) and an Lmod module file. Tested by tests/packaging.
include(CMakePackageConfigHelpers)

# Every plugin directory, one per HDF5 flavour (src/vol/CMakeLists.txt), in each file's syntax;
# PROVIO_PRIMARY_PLUGIN_DIR is the primary flavour's (the parallel one where there is one), which
# is what plugindir / PROVIO_PLUGIN_DIR name.
set(PROVIO_PRIMARY_PLUGIN_DIR ${PROVIO_PLUGIN_INSTALL_DIR_${PROVIO_HDF5_FLAVOUR}})
string(REPLACE ";" " " PROVIO_HDF5_FLAVOURS_SPACED "${PROVIO_HDF5_FLAVOURS}")
set(PROVIO_PC_PLUGIN_DIRS "flavours=${PROVIO_HDF5_FLAVOURS_SPACED}\n")
set(PROVIO_CONFIG_PLUGIN_DIRS "set(PROVIO_HDF5_FLAVOURS ${PROVIO_HDF5_FLAVOURS_SPACED})\n")
set(PROVIO_LUA_PLUGIN_DIRS "")
foreach(flavour ${PROVIO_HDF5_FLAVOURS})
  set(dir ${PROVIO_PLUGIN_INSTALL_DIR_${flavour}})
  string(MAKE_C_IDENTIFIER ${flavour} id)
  string(TOUPPER ${id} ID)
  string(APPEND PROVIO_PC_PLUGIN_DIRS "plugindir_${id}=\${prefix}/${dir}\n")
  string(APPEND PROVIO_CONFIG_PLUGIN_DIRS "set_and_check(PROVIO_PLUGIN_DIR_${ID} \"\${PACKAGE_PREFIX_DIR}/${dir}\")\n")
  string(APPEND PROVIO_LUA_PLUGIN_DIRS "setenv(\"PROVIO_PLUGIN_DIR_${ID}\", pathJoin(prefix, \"${dir}\"))\n")
endforeach()
set(provio_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/provio)
install(EXPORT provioTargets NAMESPACE provio:: DESTINATION ${provio_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/provioConfig.cmake.in
  ${PROJECT_BINARY_DIR}/package/provioConfig.cmake.in
  INSTALL_DESTINATION ${provio_cmake_dir}
  PATH_VARS PROVIO_PRIMARY_PLUGIN_DIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_BINDIR)
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
