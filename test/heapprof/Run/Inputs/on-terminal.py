"""Runs a command with its stderr on a terminal (a pseudo-terminal) and
prints what arrived there, then the command's exit status; stdin and
stdout stay the caller's.  This end keeps the terminal open, as a shell
does, so it stays readable after the command closes its own stderr."""
import os
import pty
import select
import subprocess
import sys

master, slave = pty.openpty()
proc = subprocess.Popen(sys.argv[1:], stderr=slave)
out = b""
while True:
    done = proc.poll() is not None
    while select.select([master], [], [], 0 if done else 0.05)[0]:
        out += os.read(master, 4096)
    if done:
        break
sys.stdout.write(out.decode(errors="replace").replace("\r\n", "\n"))
print("status %d" % proc.returncode)
