//===- names.h - function names as a person reads them ---------------------===//
//
// Part of heapprof.  A demangled C++ name carries every template argument
// and the parameter list: std::map<int, std::__cxx11::basic_string<char,
// ...>>::operator[](int const&) is one frame of a report.  What a person
// scans for is std::map::operator[], as pprof and most profilers show it.
// The reports show that short form unless --full-names asks for the whole
// one; contexts are told apart (and merged) by the whole names before the
// names are shortened.
//
//===----------------------------------------------------------------------===//
#ifndef HEAPPROF_TOOL_NAMES_H
#define HEAPPROF_TOOL_NAMES_H

#include <string>

namespace heapprof {
struct Profile;

// Drops template arguments <...>, parameter lists (...) with what follows
// them (const, &, ->), ABI tags [abi:cxx11], and a leading return type;
// keeps operator names
// (operator<, operator(), operator new, ...), "(anonymous namespace)" and
// lambda and block names ({lambda(int)#1} becomes {lambda#1}).  A Rust
// path's qualified self type becomes its path (<Vec<T> as Drop>::drop:
// Vec::drop) and a trailing ::<...> goes whole.  A C name,
// "??" and module+offset come back unchanged; so does anything it cannot
// read (unbalanced brackets).
std::string shortFunctionName(const std::string &Name);

// A Rust name of the legacy mangling, as the Itanium demangler leaves it
// ("hashbrown::raw::RawTable$LT$T$C$A$GT$::reserve::h5d15963c3e374117"),
// in Rust's own spelling ("hashbrown::raw::RawTable<T,A>::reserve"): the
// hash goes, and the $..$ escapes and ".." become what they stand for.  A
// name without that hash comes back unchanged.
std::string rustLegacyName(const std::string &Name);

// Every frame of P's Locations, shortened; a shortened frame keeps its
// whole name in Whole (pprof's system_name).
void shortenFunctionNames(Profile &P);
} // namespace heapprof

#endif
