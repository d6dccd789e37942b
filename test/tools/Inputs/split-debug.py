"""Moves a program's debug info to DIR/.build-id/xx/rest.debug (the layout
gdb and llvm-symbolizer search) and strips it from the program; with
--all, its symbol table too, as distributions ship their binaries.

usage: split-debug.py PROGRAM DIR [--all]
"""
import os
import re
import subprocess
import sys

prog, out = sys.argv[1], sys.argv[2]
notes = subprocess.run(["llvm-readelf", "-n", prog], capture_output=True,
                       text=True, check=True).stdout
bid = re.search(r"Build ID: ([0-9a-f]+)", notes).group(1)
dst = os.path.join(out, ".build-id", bid[:2], bid[2:] + ".debug")
os.makedirs(os.path.dirname(dst), exist_ok=True)
subprocess.run(["llvm-objcopy", "--only-keep-debug", prog, dst], check=True)
strip = "--strip-all" if sys.argv[3:] == ["--all"] else "--strip-debug"
subprocess.run(["llvm-objcopy", strip, prog], check=True)
