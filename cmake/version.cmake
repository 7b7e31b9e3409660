# Writes strata/version.h (from core/include/strata/version.h.in) under
# STRATA_GENERATED_INCLUDE, with project()'s version. CMakeLists.txt includes
# this file; a build outside CMake (scripts/fuzz) runs it alone,
#   cmake -DSTRATA_GENERATED_INCLUDE=DIR -P cmake/version.cmake
# and the version is then read from the project() line of CMakeLists.txt.
get_filename_component(strata_root "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
if(NOT PROJECT_VERSION)
  file(STRINGS "${strata_root}/CMakeLists.txt" strata_project REGEX "^project\\(strata VERSION ")
  if(NOT strata_project MATCHES "VERSION ([0-9]+)\\.([0-9]+)\\.([0-9]+)")
    message(FATAL_ERROR "no 'project(strata VERSION X.Y.Z' line in ${strata_root}/CMakeLists.txt")
  endif()
  set(PROJECT_VERSION_MAJOR ${CMAKE_MATCH_1})
  set(PROJECT_VERSION_MINOR ${CMAKE_MATCH_2})
  set(PROJECT_VERSION_PATCH ${CMAKE_MATCH_3})
  set(PROJECT_VERSION ${CMAKE_MATCH_1}.${CMAKE_MATCH_2}.${CMAKE_MATCH_3})
endif()
configure_file("${strata_root}/core/include/strata/version.h.in"
  "${STRATA_GENERATED_INCLUDE}/strata/version.h" @ONLY)
