// apsp_lab._core.reduce_edges: per-vertex reductions of a graph's distances (reductions.cpp).
#pragma once

#include <nanobind/nanobind.h>

namespace apsp::python {

void bind_reductions(nanobind::module_& m);

}  // namespace apsp::python
