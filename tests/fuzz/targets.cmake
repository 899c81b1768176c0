# The libFuzzer targets, each tests/fuzz/fuzz_<name>.cpp with its seed corpus corpus/<name>: the
# fuzz project builds them (tests/fuzz/CMakeLists.txt) and the main build's ctest runs them
# (tests/CMakeLists.txt), from this one list.
set(apsp_fuzz_targets edge_list dimacs snap mtx graph_input config results tuning_db policy)
