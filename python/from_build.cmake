# `pip install .` from a tree that is built already: scripts/setup.sh runs
#   python3 -m pip install --no-build-isolation -C build-dir=build/release/python-wheel \
#     -C cmake.define.APSP_PYTHON_FROM_BUILD=build/release .
# and the wheel takes that tree's module _core, brought up to date there and installed by that
# tree's own rule (component "python": the same file and install RPATH a build of its own would
# give), instead of compiling every kernel a second time. Included by the top-level CMakeLists.txt
# in place of the whole project. pyproject.toml still lists the Python sources and the metadata.
get_filename_component(apsp_tree "${APSP_PYTHON_FROM_BUILD}" ABSOLUTE BASE_DIR "${CMAKE_SOURCE_DIR}")
if(NOT EXISTS "${apsp_tree}/CMakeCache.txt")
  message(FATAL_ERROR "APSP_PYTHON_FROM_BUILD: ${apsp_tree} is not a configured build tree "
                      "(cmake --preset release first)")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build "${apsp_tree}" --target _core
                RESULT_VARIABLE apsp_build_rc)
if(NOT apsp_build_rc EQUAL 0)
  message(FATAL_ERROR "APSP_PYTHON_FROM_BUILD: building _core in ${apsp_tree} failed (configured "
                      "where nanobind was not importable? python/CMakeLists.txt says why)")
endif()
# The module must be for the interpreter pip installs into (scikit-build-core's SKBUILD_SOABI).
if(DEFINED SKBUILD_SOABI AND NOT EXISTS "${apsp_tree}/python/apsp_lab/_core.${SKBUILD_SOABI}.so")
  file(GLOB apsp_built "${apsp_tree}/python/apsp_lab/_core.*.so")
  message(FATAL_ERROR "APSP_PYTHON_FROM_BUILD: ${apsp_tree} holds ${apsp_built}, not a module for "
                      "${Python_EXECUTABLE} (${SKBUILD_SOABI}); configure the tree with that Python")
endif()
# The target scikit-build-core builds (pyproject.toml's build.targets): done above.
add_custom_target(_core)
install(CODE "
  set(apsp_strip)
  if(CMAKE_INSTALL_DO_STRIP)
    set(apsp_strip --strip)
  endif()
  execute_process(COMMAND \"${CMAKE_COMMAND}\" --install \"${apsp_tree}\" --component python
                          --prefix \"\${CMAKE_INSTALL_PREFIX}\" \${apsp_strip} COMMAND_ERROR_IS_FATAL ANY)"
        COMPONENT python)
