// The precompiled headers' donors (cmake/precompiled_headers.cmake): compiled only for the
// headers, which every host source then reuses; the program donor is never run.
int main() { return 0; }
