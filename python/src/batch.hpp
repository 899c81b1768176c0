// apsp_lab._core.solve_batch: the batched solve's binding (batch.cpp).
#pragma once

#include <nanobind/nanobind.h>

namespace apsp::python {

void bind_batch(nanobind::module_& m);

}  // namespace apsp::python
