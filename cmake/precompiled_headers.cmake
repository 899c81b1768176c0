# Precompiled headers for the host C++ sources: the standard headers and fmt, which nearly every
# source includes, and GoogleTest for the tests, parsed once per build rather than once per
# source. Only headers that cost a source nothing when it does not use them: CLI11 declares its
# validators as objects at namespace scope, which every source including it constructs and
# compiles, and nlohmann/json is read by a quarter of the sources; both stay where they are
# included.
#
# GCC takes a precompiled header only from a compile with the same position-independence setting,
# so the libraries (-fPIC) reuse one made for them and the executables (-fPIE) another.
# APSP_PCH=OFF builds without: every source must still include what it uses, which the fuzz build
# (tests/fuzz, without precompiled headers) checks of the core sources.
option(APSP_PCH "Precompile the standard headers, fmt and GoogleTest for the host C++ sources" ON)

set(apsp_pch_headers
    <algorithm> <chrono> <cstdint> <cstring> <filesystem> <fstream> <functional> <map> <memory>
    <optional> <set> <sstream> <stdexcept> <string> <string_view> <utility> <variant> <vector>
    <fmt/format.h>)

# apsp_precompile_headers(): gives every host C++ target below the top folder its precompiled
# headers, with GoogleTest's too for those that link it. Called once, after all targets are declared.
function(apsp_precompile_headers)
  if(NOT APSP_PCH)
    return()
  endif()
  set(libraries fmt::fmt)
  apsp_pch_donors(apsp_pch "${apsp_pch_headers}" ${libraries})
  if(TARGET GTest::gtest)
    apsp_pch_donors(apsp_pch_tests "${apsp_pch_headers};<gtest/gtest.h>" ${libraries} GTest::gtest)
    # Compiled as the tests are (tests/CMakeLists.txt).
    target_compile_options(apsp_pch_tests_library PRIVATE ${apsp_test_cxx_options})
    target_compile_options(apsp_pch_tests_program PRIVATE ${apsp_test_cxx_options})
  endif()
  apsp_targets_below(${PROJECT_SOURCE_DIR} targets)
  foreach(target IN LISTS targets)
    apsp_pch_for(${target})
  endforeach()
endfunction()

# Two targets compiled only for their precompiled headers, which the others reuse: NAME_library
# (-fPIC) for the libraries, NAME_program (-fPIE) for the executables.
function(apsp_pch_donors name headers)
  add_library(${name}_library OBJECT ${PROJECT_SOURCE_DIR}/cmake/pch_donor.cpp)
  add_executable(${name}_program EXCLUDE_FROM_ALL ${PROJECT_SOURCE_DIR}/cmake/pch_donor.cpp)
  foreach(donor ${name}_library ${name}_program)
    target_link_libraries(${donor} PRIVATE ${ARGN})
    target_precompile_headers(${donor} PRIVATE ${headers})
  endforeach()
endfunction()

function(apsp_pch_for target)
  get_target_property(type ${target} TYPE)
  get_target_property(sources ${target} SOURCES)
  list(FILTER sources INCLUDE REGEX "\\.cpp$")
  get_target_property(folder ${target} SOURCE_DIR)
  if(NOT sources OR target MATCHES "^apsp_pch" OR folder MATCHES "/python$")
    return()
  endif()
  # GoogleTest's headers only for what links it: its macros come with it, and a precompiled
  # header that read them is refused by a compile without them.
  get_target_property(links ${target} LINK_LIBRARIES)
  set(donor apsp_pch)
  if(links MATCHES "GTest::" AND TARGET apsp_pch_tests_library)
    set(donor apsp_pch_tests)
  endif()
  if(type MATCHES "^(STATIC|OBJECT|MODULE|SHARED)_LIBRARY$")
    target_precompile_headers(${target} REUSE_FROM ${donor}_library)
  elseif(type STREQUAL "EXECUTABLE")
    target_precompile_headers(${target} REUSE_FROM ${donor}_program)
  endif()
endfunction()

# Every target declared in `dir` and the folders below it.
function(apsp_targets_below dir out)
  get_property(found DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    apsp_targets_below(${sub} below)
    list(APPEND found ${below})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
