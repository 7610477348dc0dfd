# add_subdirectory() for every child folder of the current source directory that has a
# CMakeLists.txt: components, tools, tests and benchmarks join the build by existing.
function(provio_add_child_directories)
  # CONFIGURE_DEPENDS: a folder added later (a new bench or test) reconfigures the next build.
  file(GLOB children LIST_DIRECTORIES true CONFIGURE_DEPENDS RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}
       ${CMAKE_CURRENT_SOURCE_DIR}/*)
  foreach(child ${children})
    if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${child}/CMakeLists.txt)
      add_subdirectory(${child})
    endif()
  endforeach()
endfunction()
