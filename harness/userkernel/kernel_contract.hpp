// The run-time kernel contract's side of a compile (docs/kernel-contract.md): the header included
// before a user's file, the epilogue appended after it through which the harness reads the
// geometry back, and the checks of the asked macros and of the compiled module against the
// contract. What kernel_compile.cpp (NVRTC and its disk cache) builds on; internal to
// harness/userkernel.
#pragma once

#include <string>
#include <vector>

#include "core/cubin.hpp"
#include "harness/userkernel/kernel_macros.hpp"
#include "harness/userkernel/user_kernel.hpp"

namespace apsp::harness {

// Bump when the header or the epilogue changes: it is part of every cache key.
inline constexpr int kContractVersion = 2;

// Included before the user's file (NVRTC --pre-include): the unreachable value and the phase
// kernels' prototypes, so that a definition with another signature is a compile error that
// names the kernel.
inline constexpr const char* kHeaderName = "apsp_kernel.h";
inline constexpr const char* kHeader =
    R"(// apsp_kernel.h: included before every user kernel (docs/kernel-contract.md)
#pragma once
#define APSP_INF 1073741823
extern "C" __global__ void fw_phase1(int* d, int n, int k);
extern "C" __global__ void fw_phase2(int* d, int n, int k);
extern "C" __global__ void fw_phase3(int* d, int n, int k);
)";

// Appended after the user's file: the contract's required macros, the optional ones' defaults,
// and every value the harness reads back (read_geometry), the file's tunable macros `params`
// among them, as one initialised array.
std::string contract_epilogue(const std::vector<std::string>& params);

// The file's tunable macros that have no slot of their own in the epilogue's array.
std::vector<std::string> extra_params(const KernelMacros& m);

// Contract faults NVRTC reports as errors (a required macro missing, a phase kernel of another
// signature), thrown as the ContractError that names them; returns for any other error.
void throw_contract_faults(const KernelSource& src, const std::string& log);

// The geometry the compiled module declares (the epilogue's array, each phase kernel's static
// shared memory); throws ContractError for a missing phase kernel or a value out of range.
KernelGeometry read_geometry(const KernelSource& src, const Cubin& cubin,
                             const std::vector<std::string>& params);

// Throws ContractError unless every macro asked is a parameter of the file (the contract's are
// checked after the compile, against the values compiled).
void check_asked_names(const KernelSource& src, const KernelMacros& m, const Config& macros);

// Throws ContractError unless every macro asked is the value compiled.
void check_asked_values(const KernelSource& src, const KernelGeometry& g, const Config& macros);

}  // namespace apsp::harness
