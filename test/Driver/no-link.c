// Nothing is linked after -c, -S, -E, -M, -MM or -fsyntax-only, so the
// runtime is not added; with no input at all (-v, -print-*) nothing is
// added.  -MD and -MMD do link.
// REQUIRES: heapprof-driver
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -E %s | FileCheck %s --check-prefix=NOLINK
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -M %s | FileCheck %s --check-prefix=NOLINK
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -MM %s | FileCheck %s --check-prefix=NOLINK
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -fsyntax-only %s | FileCheck %s --check-prefix=NOLINK
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -S %s | FileCheck %s --check-prefix=NOLINK
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -MD %s | FileCheck %s --check-prefix=LINK
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -v | FileCheck %s --check-prefix=NOTHING
// RUN: env HEAPPROF_CLANG=echo heapprof-clang -fheapprof -o out -print-file-name=libc.so | FileCheck %s --check-prefix=NOTHING2
// RUN: heapprof-clang -fheapprof -E %s -o - | FileCheck %s --check-prefix=PP

// NOLINK: -fpass-plugin=
// NOLINK-NOT: libheapprof
// LINK: -fpass-plugin={{.*}} -Wl,--whole-archive {{.*}}libheapprof_rt.a
// NOTHING: {{^}}-v{{$}}
// NOTHING2: {{^}}-o out -print-file-name=libc.so{{$}}
// PP: int preprocessed_fine

int preprocessed_fine;
