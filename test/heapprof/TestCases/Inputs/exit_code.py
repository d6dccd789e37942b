"""Runs a command and fails unless it exits with exactly the given code.

usage: exit_code.py CODE COMMAND [ARGS...]   (stdout/stderr pass through)
"""
import subprocess
import sys

want = int(sys.argv[1])
got = subprocess.call(sys.argv[2:])
if got != want:
    sys.stderr.write("exit_code.py: expected exit code %d, got %d\n" % (want, got))
    sys.exit(1)
