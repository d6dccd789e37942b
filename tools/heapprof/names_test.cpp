//===- names_test.cpp - shortFunctionName on the names demanglers make -----===//
//
// Part of heapprof.  Each case is a name as llvm-symbolizer demangles it
// and the short form a person reads (names.h).  Exit status 1 on any
// mismatch, printing it.
//
//===----------------------------------------------------------------------===//
#include "names.h"

#include <cstdio>

int main() {
  struct Case {
    const char *In, *Out;
  } Cases[] = {
      // C names, unknown frames and module+offset are left alone.
      {"main", "main"},
      {"??", "??"},
      {"python3.11+0x647d96", "python3.11+0x647d96"},
      {"_IO_file_doallocate", "_IO_file_doallocate"},
      // Template arguments and parameter lists go.
      {"std::__cxx11::basic_string<char, std::char_traits<char>, "
       "std::allocator<char>>::_M_construct(unsigned long, char)",
       "std::__cxx11::basic_string::_M_construct"},
      {"std::map<int, std::__cxx11::basic_string<char, "
       "std::char_traits<char>, std::allocator<char>>, std::less<int>, "
       "std::allocator<std::pair<int const, std::__cxx11::basic_string<char, "
       "std::char_traits<char>, std::allocator<char>>>>>::operator[](int "
       "const&)",
       "std::map::operator[]"},
      // A leading return type goes.
      {"std::_Rb_tree_node<std::pair<int const, int>>* std::_Rb_tree<int, "
       "std::pair<int const, int>, std::_Select1st<std::pair<int const, "
       "int>>, std::less<int>, std::allocator<std::pair<int const, "
       "int>>>::_M_create_node<std::piecewise_construct_t "
       "const&>(std::piecewise_construct_t const&)",
       "std::_Rb_tree::_M_create_node"},
      {"void std::vector<int, std::allocator<int>>::_M_realloc_insert<int "
       "const&>(__gnu_cxx::__normal_iterator<int*, std::vector<int, "
       "std::allocator<int>>>, int const&)",
       "std::vector::_M_realloc_insert"},
      // Qualifiers after the parameter list go with it.
      {"Widget::size() const", "Widget::size"},
      {"Widget::take() &&", "Widget::take"},
      // Operators keep their spelling, including the ones made of brackets.
      {"std::less<int>::operator()(int const&, int const&) const",
       "std::less::operator()"},
      {"operator new(unsigned long)", "operator new"},
      {"operator new[](unsigned long, std::nothrow_t const&)",
       "operator new[]"},
      {"operator delete(void*, unsigned long)", "operator delete"},
      {"bool std::operator< <char>(std::basic_string<char> const&, "
       "std::basic_string<char> const&)",
       "std::operator<"},
      {"Buffer::operator<<(int)", "Buffer::operator<<"},
      {"Buffer::operator<=>(Buffer const&) const", "Buffer::operator<=>"},
      {"Ptr::operator->() const", "Ptr::operator->"},
      {"Flag::operator bool() const", "Flag::operator bool"},
      // Conversions to types of several words, and literal operators: the
      // type or suffix is the name, not a return type before it.
      {"Str::operator char const*() const", "Str::operator char const*"},
      {"Str::operator unsigned long() const", "Str::operator unsigned long"},
      {"Str::operator std::vector<int, std::allocator<int>>() const",
       "Str::operator std::vector<int, std::allocator<int>>"},
      {"Str::operator char const&() &&", "Str::operator char const&"},
      {"operator\"\" _kb(unsigned long long)", "operator\"\" _kb"},
      {"ns::operator\"\"_kb(char const*, unsigned long)",
       "ns::operator\"\"_kb"},
      {"int operators(int)", "operators"}, // a name, not an operator
      // Anonymous namespaces and lambdas stay readable.
      {"(anonymous namespace)::Pool::grow(unsigned long)",
       "(anonymous namespace)::Pool::grow"},
      {"void (anonymous namespace)::fill<int>(int)",
       "(anonymous namespace)::fill"},
      {"main::{lambda(int)#1}::operator()(int) const",
       "main::{lambda#1}::operator()"},
      // ABI tags go: libstdc++'s [abi:cxx11] on every function returning a
      // std::string (on a type's name too).
      {"generate[abi:cxx11]()", "generate"},
      {"Person::name[abi:cxx11]() const", "Person::name"},
      {"std::__cxx11::basic_string<char, std::char_traits<char>, "
       "std::allocator<char>> std::__cxx11::to_string[abi:cxx11](int)",
       "std::__cxx11::to_string"},
      {"Tagged[abi:v2]::make(int)", "Tagged::make"},
      // gcc's clone suffixes go.
      {"parse(char const*) [clone .cold]", "parse"},
      // Unbalanced brackets: left alone.
      {"broken<int(", "broken<int("},
      // Rust (v0 names and DWARF's): a qualified self type names its path,
      // and generic arguments at a path's end go with their "::".
      {"<alloc::alloc::Global>::alloc_impl_runtime",
       "alloc::alloc::Global::alloc_impl_runtime"},
      {"<std::collections::hash::map::HashMap<K, V, S> as "
       "core::ops::index::Index<&Q>>::index",
       "std::collections::hash::map::HashMap::index"},
      {"std::panicking::catch_unwind::<i32, "
       "std::rt::lang_start_internal::{closure#0}>",
       "std::panicking::catch_unwind"},
      {"std::panicking::catch_unwind::do_call::<F, R>",
       "std::panicking::catch_unwind::do_call"},
      {"std::rt::lang_start_internal::{closure#0}",
       "std::rt::lang_start_internal::{closure#0}"},
  };
  // Rust's legacy mangling, after the Itanium demangler: the hash goes and
  // the escapes are undone; anything else is left alone.
  struct Case RustCases[] = {
      {"hashbrown::raw::RawTable$LT$T$C$A$GT$::reserve_rehash::"
       "h42d29bd390e8fd6a",
       "hashbrown::raw::RawTable<T,A>::reserve_rehash"},
      {"std::rt::lang_start::_$u7b$$u7b$closure$u7d$$u7d$::h0123456789abcdef",
       "std::rt::lang_start::{{closure}}"},
      {"main::build::h6c7f233e7a8f53dd", "main::build"},
      // A symbol made local by LTO keeps its suffix (the short form drops
      // it as it drops a parameter list).
      {"hashbrown::raw::RawTable$LT$T$C$A$GT$::reserve_rehash::"
       "h42d29bd390e8fd6a (.llvm.7753839490817677716)",
       "hashbrown::raw::RawTable<T,A>::reserve_rehash "
       "(.llvm.7753839490817677716)"},
      {"_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$"
       "::drop::h0123456789abcdef",
       "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop"},
      {"_$LT$$RF$T$u20$as$u20$core..fmt..Debug$GT$::fmt::h0123456789abcdef",
       "<&T as core::fmt::Debug>::fmt"},
      // No hash: not a legacy Rust name.
      {"Foo$LT$::bar", "Foo$LT$::bar"},
      {"std::vector<int>::size() const", "std::vector<int>::size() const"},
      {"f::h0123456789abcdeg", "f::h0123456789abcdeg"},
  };
  int Bad = 0;
  size_t Total = 0;
  // One result against the name wanted: a mismatch is printed and counted.
  auto Check = [&](const char *In, const char *Want, std::string Got,
                   const char *What) {
    Total++;
    if (Got != Want) {
      printf("FAIL (%s): %s\n  expected: %s\n  got:      %s\n", What, In,
             Want, Got.c_str());
      Bad++;
    }
  };
  for (const Case &C : RustCases)
    Check(C.In, C.Out, heapprof::rustLegacyName(C.In), "rust");
  // Both together, as a report shows a legacy Rust frame.
  const char *Legacy =
      "_$LT$alloc..vec..Vec$LT$T$GT$$u20$as$u20$core..ops..drop..Drop$GT$"
      "::drop::h0123456789abcdef";
  Check(Legacy, "alloc::vec::Vec::drop",
        heapprof::shortFunctionName(heapprof::rustLegacyName(Legacy)),
        "rust, shortened");
  for (const Case &C : Cases)
    Check(C.In, C.Out, heapprof::shortFunctionName(C.In), "short");
  printf("%d of %zu names\n", (int)Total - Bad, Total);
  return Bad ? 1 : 0;
}
