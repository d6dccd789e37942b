# -*- Python -*-
# lit configuration for every heapprof suite: runtime TestCases (C/C++ programs
# run under the profiler), Instrumentation (.ll files through opt + the pass
# plugin), Driver (heapprof-clang -###) and tools.
import os
import shlex
import subprocess
import shutil

import lit.formats

config.name = "heapprof"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".ll", ".test"]
config.excludes = ["Inputs", "Unit", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.heapprof_obj_root, "test")

if os.uname().sysname != "Linux" or os.uname().machine != "x86_64":
    config.unsupported = True

# Tools: LLVM 19's (FileCheck, not, count, opt, llvm-profdata, llvm-symbolizer)
# and the build's own (heapprof-clang, heapprof) come first on PATH.
path = os.pathsep.join([config.heapprof_bin_dir, config.llvm_tools_dir,
                        config.environment.get("PATH", os.environ.get("PATH", ""))])
config.environment["PATH"] = path
# A profile test must not inherit options, output paths or the debug-file
# directory from the caller.
for var in ("HEAPPROF_OPTIONS", "MEMPROF_OPTIONS", "HEAPPROF_SYSTEM_DEBUG_DIR"):
    config.environment.pop(var, None)
config.environment["LC_ALL"] = "C"

lib = config.heapprof_lib_dir
rt_archive = os.path.join(lib, "libheapprof_rt.a")
cxx_archive = os.path.join(lib, "libheapprof_cxx.a")
plugin = os.path.join(lib, "HeapProfiler.so")
driver_c = os.path.join(config.heapprof_bin_dir, "heapprof-clang")
driver_cxx = os.path.join(config.heapprof_bin_dir, "heapprof-clang++")

common = ["-fno-omit-frame-pointer", "-mno-omit-leaf-frame-pointer",
          "-fno-optimize-sibling-calls", "-gline-tables-only",
          "-fdebug-info-for-profiling",
          "-I" + config.heapprof_include_dir]
rt_link = ["-Wl,--whole-archive", rt_archive, "-Wl,--no-whole-archive",
           "-Wl,--dynamic-list=" + rt_archive + ".syms",
           "-lpthread", "-ldl", "-lm", "-Wl,--build-id"]
cxx_link = ["-Wl,--whole-archive", cxx_archive, "-Wl,--no-whole-archive"]

def q(args):
    return " ".join(shlex.quote(a) for a in args)

# %clang_rt_heapprof: plain clang-19 linked with the runtime, no pass: the
# runtime on its own (allocator, interceptors, profile) without access
# instrumentation.
config.substitutions.append(("%clangxx_rt_heapprof",
    q([config.cxx_compiler] + common) + " " + q(cxx_link + rt_link)))
config.substitutions.append(("%clang_rt_heapprof",
    q([config.c_compiler] + common) + " " + q(rt_link)))

have_driver = os.path.exists(driver_c) and os.path.exists(plugin)
if have_driver:
    config.available_features.add("heapprof-driver")
    config.substitutions.append(("%clangxx_heapprof", q([driver_cxx, "-fheapprof", "-I" + config.heapprof_include_dir])))
    config.substitutions.append(("%clang_heapprof", q([driver_c, "-fheapprof", "-I" + config.heapprof_include_dir])))
else:
    # Until the driver and pass exist, "heapprof" means the runtime alone.
    config.substitutions.append(("%clangxx_heapprof", q([config.cxx_compiler] + common) + " " + q(cxx_link + rt_link)))
    config.substitutions.append(("%clang_heapprof", q([config.c_compiler] + common) + " " + q(rt_link)))
if os.path.exists(plugin):
    config.available_features.add("pass-plugin")

config.substitutions.append(("%opt_heapprof",
    q([os.path.join(config.llvm_tools_dir, "opt"), "-load-pass-plugin=" + plugin])))
config.substitutions.append(("%heapprof_plugin", plugin))
config.substitutions.append(("%heapprof_rt_archive", rt_archive))
config.substitutions.append(("%heapprof_lib_dir", lib))
config.substitutions.append(("%heapprof_bin_dir", config.heapprof_bin_dir))
config.substitutions.append(("%heapprof_include_dir", config.heapprof_include_dir))
config.substitutions.append(("%heapprof_src_root", config.heapprof_src_root))
config.substitutions.append(("%clang_plain", config.c_compiler))
config.substitutions.append(("%clangxx_plain", config.cxx_compiler))
config.substitutions.append(("%env_heapprof_opts=", "env HEAPPROF_OPTIONS="))
config.substitutions.append(("%run", ""))
config.substitutions.append(("%python", shlex.quote(__import__("sys").executable)))

# heapprof html's and flamegraph --svg's tests read what a real browser
# built (Debian chromium).
if shutil.which("chromium"):
    config.available_features.add("chromium")


# Security tests change owners and modes (chown, chgrp): they need root.
# setuid-exec: a root-run binary that is setuid to nobody gets AT_SECURE
# (its effective uid differs from the real one), which tests secure mode
# without a second login.  It needs the user nobody, a file system not
# mounted nosuid, and every directory above the test outputs searchable by
# others (nobody must reach its profile directory).
def _setuid_exec_works():
    import pwd
    try:
        pwd.getpwnam("nobody")
    except KeyError:
        return False
    root = config.test_exec_root
    os.makedirs(root, exist_ok=True)
    if os.statvfs(root).f_flag & os.ST_NOSUID:
        return False
    d = os.path.abspath(root)
    while True:
        if not os.stat(d).st_mode & 0o001:
            return False
        parent = os.path.dirname(d)
        if parent == d:
            return True
        d = parent
if os.geteuid() == 0:
    config.available_features.add("root")
    if _setuid_exec_works():
        config.available_features.add("setuid-exec")
    # A private mount namespace, where a test can bind-mount a file over a
    # /proc/sys setting without changing the machine's.
    try:
        if subprocess.run(["unshare", "-m", "true"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            config.available_features.add("mount-namespace")
    except OSError:
        pass


# Programs that map big shadow regions: keep parallelism modest on 2 cores.
lit_config.parallelism_groups["shadow-memory"] = 4
config.parallelism_group = "shadow-memory"

# go-pprof: `go tool pprof` (Debian golang-go) reads heapprof pprof's
# output.  Go's caches and pprof's files go to a directory of the build,
# never the caller's HOME; no network (nothing is fetched or symbolized).
def _go_pprof_works():
    import shutil
    import subprocess
    if not shutil.which("go"):
        return False
    home = os.path.join(config.test_exec_root, "go-home")
    os.makedirs(home, exist_ok=True)
    for var, val in (("HOME", home), ("GOCACHE", os.path.join(home, "cache")),
                     ("GOPATH", os.path.join(home, "gopath")),
                     ("PPROF_TMPDIR", os.path.join(home, "pprof")),
                     ("GOFLAGS", "-mod=mod"), ("GOPROXY", "off"),
                     ("GOTOOLCHAIN", "local")):
        config.environment[var] = val
    try:
        r = subprocess.run(["go", "tool", "pprof", "-h"], env=config.environment,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except OSError:
        return False
    return b"pprof" in r.stdout
if _go_pprof_works():
    config.available_features.add("go-pprof")

# rustc: a Rust program's frames through its standard library, when the
# machine has a Rust toolchain (not a Debian package the project installs).
# rustup finds its toolchains under the caller's RUSTUP_HOME (default
# ~/.rustup), whatever HOME the tests get.
def _rustc_works():
    import shutil
    import subprocess
    if not shutil.which("rustc", path=config.environment.get("PATH")):
        return False
    rustup = os.environ.get("RUSTUP_HOME", os.path.expanduser("~/.rustup"))
    if os.path.isdir(rustup):
        config.environment["RUSTUP_HOME"] = rustup
    try:
        r = subprocess.run(["rustc", "--version"], env=config.environment,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except OSError:
        return False
    return r.returncode == 0
if _rustc_works():
    config.available_features.add("rustc")

# The CPU's vector extensions, for tests that run AVX2 and AVX-512 code.
try:
    _cpu_flags = set()
    for _line in open("/proc/cpuinfo"):
        if _line.startswith("flags"):
            _cpu_flags.update(_line.split(":", 1)[1].split())
            break
except OSError:
    _cpu_flags = set()
if "avx2" in _cpu_flags:
    config.available_features.add("avx2")
if "avx512f" in _cpu_flags:
    config.available_features.add("avx512f")

# pagemap-scan: the kernel's PAGEMAP_SCAN ioctl (Linux 6.7), with which the
# peak's resident counts leave out pages that only map the zero page.
def _pagemap_scan_works():
    import fcntl
    import struct
    try:
        fd = os.open("/proc/self/pagemap", os.O_RDONLY)
    except OSError:
        return False
    try:
        arg = bytearray(struct.pack("12Q", 96, 0, 0x10000, 0x20000,
                                    0, 0, 0, 0, 0, 0, 0, 1 << 3))
        fcntl.ioctl(fd, 0xc0606610, arg, True)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
if _pagemap_scan_works():
    config.available_features.add("pagemap-scan")

# LLVM's OpenMP runtime (Debian libomp-19-dev), for the pass's parallel
# regions (-fopenmp).
if os.path.exists("/usr/lib/llvm-19/lib/libomp.so"):
    config.available_features.add("openmp")

# strace (scripts/setup.sh installs it), for tests that count a tool's
# system calls (test/tools/debug-dir-debuglink-opens.c); a container that
# refuses ptrace has none.
def _strace_works():
    import subprocess
    if not shutil.which("strace"):
        return False
    try:
        r = subprocess.run(["strace", "-f", "-e", "trace=openat", "-o",
                            os.devnull, "true"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    except OSError:
        return False
    return r.returncode == 0
if _strace_works():
    config.available_features.add("strace")

# A CMake project built with the driver (test/Driver/cmake-lto.test).
if shutil.which("cmake") and shutil.which("ninja"):
    config.available_features.add("cmake")

# Allocator libraries heapprof run --allocator=PATH profiles (Debian
# libjemalloc2, libtcmalloc-minimal4, libmimalloc2.0): a feature and a
# %lib<name> substitution for each one installed.
for _name, _file in (("jemalloc", "libjemalloc.so.2"),
                     ("tcmalloc", "libtcmalloc_minimal.so.4"),
                     ("mimalloc", "libmimalloc.so.2")):
    _path = os.path.join("/usr/lib/x86_64-linux-gnu", _file)
    if os.path.exists(_path):
        config.available_features.add(_name)
        config.substitutions.append(("%lib" + _name, _path))
