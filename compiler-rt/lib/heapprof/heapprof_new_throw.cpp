//===- heapprof_new_throw.cpp - C++ exceptions for operator new -----------===//
//
// Part of heapprof; in the heapprof_cxx archive with heapprof_new_delete.c,
// so only C++ programs (which link a C++ runtime anyway) see it.  The C
// operator new cannot throw or catch, so this file does both for it:
//
//   hp_throw_bad_alloc        throws std::bad_alloc, as a throwing operator
//                             new must when no new_handler is left;
//   hp_call_new_handler_nothrow  calls a new_handler for a nothrow new,
//                             which returns NULL if the handler throws.
//
// The exception unwinds through the C frame of the operator new that called
// hp_throw_bad_alloc: heapprof_new_delete.c is compiled with unwind tables
// (CMakeLists.txt), or the unwinder would stop there and call terminate.
// Nothing here defines a class or an inline function that would leave a
// symbol outside hp_* in the archive (test/heapprof/TestCases/symbols.test).
//===----------------------------------------------------------------------===//
#include <new>

extern "C" {

[[noreturn]] void hp_throw_bad_alloc(void) { throw std::bad_alloc(); }

// Returns false if the handler threw std::bad_alloc (or a class derived from
// it, the only exceptions the standard lets a new_handler throw).  Anything
// else, including the forced unwind of pthread_cancel, passes on.
bool hp_call_new_handler_nothrow(std::new_handler handler) {
  try {
    handler();
  } catch (const std::bad_alloc &) {
    return false;
  }
  return true;
}

} // extern "C"
