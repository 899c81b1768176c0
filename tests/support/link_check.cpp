// The one source of each library's link check (tests/CMakeLists.txt): the library itself is linked
// whole beside it, so that every symbol it references must come from what it declares.
