# apsp_variant_api's host sources, relative to variants/: the library's (variants/CMakeLists.txt,
# which adds the ceiling probe's CUDA file) and the fuzz project's (tests/fuzz).
set(apsp_variant_api_host_sources config.cpp registry.cpp instances.cpp batch_registry.cpp)
