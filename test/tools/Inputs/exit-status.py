"""Runs COMMAND... and prints "exit status N", its stdout and stderr
passed on as they come: lit's shell has no $?, and `not` only tells 0
from the rest.

usage: exit-status.py COMMAND...
"""
import subprocess
import sys

sys.stdout.flush()
print("exit status %d" % subprocess.call(sys.argv[1:]), flush=True)
