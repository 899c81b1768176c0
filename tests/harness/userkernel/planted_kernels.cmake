# The planted faults the user-kernel tests run (test_user_kernel.cpp beside this file, the GPU
# tests and the CLI tests): examples/kernels/fw32.cu with one change each, written into the
# build folder at configure time, so that the example stays the one copy of the kernel. A change
# whose text is no longer in the example fails the configure: a planted fault cannot silently
# vanish.
set(planted_source ${PROJECT_SOURCE_DIR}/examples/kernels/fw32.cu)
set(planted_dir ${CMAKE_CURRENT_BINARY_DIR}/kernels)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${planted_source})
file(READ ${planted_source} planted_text)

function(plant name from to)
  string(FIND "${planted_text}" "${from}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "tests/harness/userkernel/planted_kernels.cmake: ${name}: the text to change is not in ${planted_source}")
  endif()
  string(REPLACE "${from}" "${to}" text "${planted_text}")
  file(CONFIGURE OUTPUT ${planted_dir}/${name}.cu CONTENT "${text}" @ONLY)
endfunction()

# Wrong distances: phase 3 one step short.
plant(planted_wrong_kernel [=[for (int m = 0; m < TILE; ++m) best = min(best, col]=]
                           [=[for (int m = 0; m < TILE - 1; ++m) best = min(best, col]=])
# An illegal address: phase 3 writes far outside the matrix in round 1.
plant(planted_fault_kernel [=[  if (x == k || y == k) return;  // phase 2 owns the pivot row and column
]=] [=[  if (x == k || y == k) return;  // phase 2 owns the pivot row and column
  if (k == 1 && threadIdx.x == 0) d[(size_t)1 << 40] = 0;
]=])
# A hang: phase 1 spins forever in round 1 (--kernel-timeout must stop it).
plant(planted_hang_kernel [=[fw_phase1(int* d, int n, int k) {
]=] [=[fw_phase1(int* d, int n, int k) {
  if (k == 1) {
    volatile int* spin = d;
    while (spin[0] >= 0) {
    }
  }
]=])
# Does not compile: a semicolon missing (line 25 of fw32.cu).
plant(syntax_error_kernel [=[  t[ty][tx] = load(d, n, i, j);
  __syncthreads();]=] [=[  t[ty][tx] = load(d, n, i, j)
  __syncthreads();]=])
# Contract violations: a fourth parameter; no fw_phase3; TILE a constant, not a macro; TILE
# fixed by a bare #define (cannot be set from outside); shared memory no GPU has.
plant(wrong_signature_kernel [=[fw_phase2(int* d, int n, int k)]=] [=[fw_phase2(int* d, int n, int k, int tiles)]=])
plant(missing_phase3_kernel [=[extern "C" __global__ void __launch_bounds__(THREADS_X * THREADS_Y) fw_phase3(]=]
                            [=[__device__ void not_fw_phase3(]=])
plant(no_tile_kernel [=[#ifndef TILE
#define TILE 32
#endif
#define THREADS_X TILE
#define THREADS_Y TILE]=] [=[constexpr int TILE = 32;
#define THREADS_X 32
#define THREADS_Y 32]=])
plant(fixed_tile_kernel [=[#ifndef TILE
#define TILE 32
#endif]=] [=[#define TILE 32]=])
plant(too_much_smem_kernel [=[#define THREADS_Y TILE
]=] [=[#define THREADS_Y TILE
#define SHMEM3 (300 * 1024)
]=])
# A tunable macro beyond the contract's: phase 3's loop unrolled by UNROLL (#ifndef-guarded, so a
# parameter in every program), through _Pragma and a stringizing macro, as the contract advises.
plant(unrolled_kernel [=[  for (int m = 0; m < TILE; ++m) best = min(best, col]=]
                      [=[#ifndef UNROLL
#define UNROLL 4
#endif
#define FW_STRINGIZE(x) #x
#define FW_UNROLL(n) _Pragma(FW_STRINGIZE(unroll n))
  FW_UNROLL(UNROLL)
  for (int m = 0; m < TILE; ++m) best = min(best, col]=])
# More threads per block than any GPU launches: a kernel that cannot run at any n.
plant(too_many_threads_kernel [=[#define THREADS_Y TILE
]=] [=[#define THREADS_Y (2 * TILE)
]=])
