# Finds the HDF5s provio builds against (docs/distributions.md): the HDF5 CMake package the user
# points at (provio's own scripts/setup.sh build, Spack), else the distribution's pkg-config files
# (Debian's hdf5-openmpi, hdf5-mpich, hdf5-serial), else any HDF5 CMake package CMake finds. Each HDF5 found is a *flavour*: one VOL plugin
# is built per flavour, because a plugin only works inside a process running the HDF5 it was
# built against (src/vol/plugin.cc refuses to load into another).
#
# Defines, for every flavour F in PROVIO_HDF5_FLAVOURS:
#   provio_hdf5_F                 an interface target: HDF5's headers and C library
#   PROVIO_HDF5_F_VERSION         its version
#   PROVIO_HDF5_F_PARALLEL        whether it was built with MPI (H5_HAVE_PARALLEL)
# and for the primary flavour (the first parallel one, else the first), which every other target
# (tests, examples, benchmarks) links through `provio_hdf5`:
#   PROVIO_HDF5_FLAVOUR, PROVIO_HDF5_PARALLEL, HDF5_VERSION, PROVIO_HDF5_INCLUDE_DIRS,
#   PROVIO_HDF5_BIN (its tools: h5dump, h5repack, h5_api_test when built), and the flavour of
#   those tools, PROVIO_HDF5_TOOLS_FLAVOUR
set(PROVIO_HDF5_FLAVOURS "")

# Reads H5pubconf.h under `dirs`: whether that HDF5 is parallel.
function(provio_hdf5_parallel out dirs)
  set(parallel OFF)
  foreach(dir ${dirs})
    if(EXISTS ${dir}/H5pubconf.h)
      file(STRINGS ${dir}/H5pubconf.h line REGEX "#define H5_HAVE_PARALLEL 1")
      if(line)
        set(parallel ON)
      endif()
      break()
    endif()
  endforeach()
  set(${out} ${parallel} PARENT_SCOPE)
endfunction()

function(provio_hdf5_add flavour version dirs link)
  if(version VERSION_LESS 1.14)
    message(STATUS "provio: HDF5 ${version} (${flavour}) is older than 1.14, not used")
    return()
  endif()
  add_library(provio_hdf5_${flavour} INTERFACE)
  target_link_libraries(provio_hdf5_${flavour} INTERFACE ${link})
  provio_hdf5_parallel(parallel "${dirs}")
  set(PROVIO_HDF5_${flavour}_VERSION ${version} PARENT_SCOPE)
  set(PROVIO_HDF5_${flavour}_PARALLEL ${parallel} PARENT_SCOPE)
  set(PROVIO_HDF5_${flavour}_INCLUDE_DIRS "${dirs}" PARENT_SCOPE)
  set(PROVIO_HDF5_FLAVOURS ${PROVIO_HDF5_FLAVOURS} ${flavour} PARENT_SCOPE)
endfunction()

# An HDF5 CMake package. No version is asked: HDF5 2.x's package accepts only its own
# major.minor, so asking for 1.14 would refuse 2.2 (provio_hdf5_add checks the version).
macro(provio_hdf5_from_cmake_package)
  find_package(HDF5 NAMES hdf5 CONFIG QUIET)
  if(HDF5_FOUND)
    # provio's own build and the HDF Group's packages export hdf5::hdf5-shared, Debian's hdf5-shared.
    foreach(target hdf5::hdf5-shared hdf5-shared hdf5::hdf5 hdf5)
      if(TARGET ${target})
        get_target_property(dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
        if(NOT dirs)
          set(dirs "${HDF5_INCLUDE_DIR}")
        endif()
        provio_hdf5_parallel(parallel "${dirs}")
        if(parallel)
          set(flavour parallel)
        else()
          set(flavour serial)
        endif()
        provio_hdf5_add(${flavour} "${HDF5_VERSION}" "${dirs}" ${target})
        get_filename_component(prefix "${HDF5_DIR}" DIRECTORY)  # <prefix>/cmake
        set(PROVIO_HDF5_${flavour}_BIN "${prefix}/bin")
        if(NOT EXISTS "${prefix}/bin/h5dump")  # <prefix>/lib/cmake/hdf5, or Debian's /usr
          get_filename_component(prefix "${prefix}/../.." ABSOLUTE)
          set(PROVIO_HDF5_${flavour}_BIN "${prefix}/bin")
        endif()
        set(provio_hdf5_origin "${HDF5_DIR}")
        break()
      endif()
    endforeach()
  endif()
endmacro()

# The distribution's pkg-config files, every flavour installed (Debian: hdf5-openmpi, hdf5-mpich,
# hdf5-serial; elsewhere plain hdf5).
macro(provio_hdf5_from_pkg_config)
  find_package(PkgConfig REQUIRED)
  foreach(module hdf5-openmpi hdf5-mpich hdf5-serial hdf5)
    pkg_check_modules(provio_pc_${module} QUIET IMPORTED_TARGET GLOBAL ${module})
    if(provio_pc_${module}_FOUND)
      string(REPLACE "hdf5-" "" flavour ${module})
      if(flavour STREQUAL "hdf5")
        if(PROVIO_HDF5_FLAVOURS)
          break()  # the plain module is one of the flavours above under another name
        endif()
        set(flavour serial)
      endif()
      provio_hdf5_add(${flavour} "${provio_pc_${module}_VERSION}" "${provio_pc_${module}_INCLUDE_DIRS}"
                      PkgConfig::provio_pc_${module})
      # Debian installs the serial flavour's tools (hdf5-tools) on the PATH.
      set(PROVIO_HDF5_${flavour}_BIN /usr/bin)
      set(provio_hdf5_origin "pkg-config")
    endif()
  endforeach()
endmacro()

# An HDF5 the user points at (HDF5_DIR, HDF5_ROOT, CMAKE_PREFIX_PATH: provio's scripts/build.sh,
# Spack's environment) is a CMake package and comes first. Otherwise the distribution's flavours
# come first: Debian's CMake package (sid) covers one flavour of several.
if(HDF5_DIR OR HDF5_ROOT OR DEFINED ENV{HDF5_DIR} OR DEFINED ENV{HDF5_ROOT} OR CMAKE_PREFIX_PATH OR
   DEFINED ENV{CMAKE_PREFIX_PATH})
  provio_hdf5_from_cmake_package()
  if(NOT PROVIO_HDF5_FLAVOURS)
    provio_hdf5_from_pkg_config()
  endif()
else()
  provio_hdf5_from_pkg_config()
  if(NOT PROVIO_HDF5_FLAVOURS)
    provio_hdf5_from_cmake_package()
  endif()
endif()

if(NOT PROVIO_HDF5_FLAVOURS)
  message(FATAL_ERROR "provio: no HDF5 >= 1.14 found: install the distribution's (Debian: libhdf5-dev "
                      "and/or libhdf5-openmpi-dev), point CMAKE_PREFIX_PATH at an HDF5 CMake package, "
                      "or run scripts/setup.sh, which builds one")
endif()

set(PROVIO_HDF5_FLAVOUR "")
foreach(flavour ${PROVIO_HDF5_FLAVOURS})
  if(PROVIO_HDF5_${flavour}_PARALLEL AND NOT PROVIO_HDF5_FLAVOUR)
    set(PROVIO_HDF5_FLAVOUR ${flavour})
  endif()
endforeach()
if(NOT PROVIO_HDF5_FLAVOUR)
  list(GET PROVIO_HDF5_FLAVOURS 0 PROVIO_HDF5_FLAVOUR)
endif()
add_library(provio_hdf5 ALIAS provio_hdf5_${PROVIO_HDF5_FLAVOUR})
set(PROVIO_HDF5_PARALLEL ${PROVIO_HDF5_${PROVIO_HDF5_FLAVOUR}_PARALLEL})
set(HDF5_VERSION ${PROVIO_HDF5_${PROVIO_HDF5_FLAVOUR}_VERSION})
set(PROVIO_HDF5_INCLUDE_DIRS "${PROVIO_HDF5_${PROVIO_HDF5_FLAVOUR}_INCLUDE_DIRS}")
set(PROVIO_HDF5_BIN "${PROVIO_HDF5_${PROVIO_HDF5_FLAVOUR}_BIN}" CACHE PATH "HDF5 tools and API test binaries")
# The flavour of the tools in PROVIO_HDF5_BIN, whose plugin they load: Debian's hdf5-tools are the
# serial flavour's.
set(PROVIO_HDF5_TOOLS_FLAVOUR ${PROVIO_HDF5_FLAVOUR})
if(provio_hdf5_origin STREQUAL "pkg-config" AND "serial" IN_LIST PROVIO_HDF5_FLAVOURS)
  set(PROVIO_HDF5_TOOLS_FLAVOUR serial)
endif()
foreach(flavour ${PROVIO_HDF5_FLAVOURS})
  message(STATUS "provio: HDF5 ${PROVIO_HDF5_${flavour}_VERSION} (${flavour}) from ${provio_hdf5_origin}")
endforeach()
message(STATUS "provio: tests and examples use the ${PROVIO_HDF5_FLAVOUR} HDF5")
