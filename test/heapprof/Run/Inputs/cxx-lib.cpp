// A C++ library for a C program: its objects come from operator new.
extern "C" void *cxx_make(void) { return new int[6]; }
extern "C" void cxx_drop(void *p) { delete[] static_cast<int *>(p); }
