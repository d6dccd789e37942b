"""Runs a command with SIGINT at its default action (lit's workers ignore
it, and a child inherits that; a shell cannot undo it) and exits with its
status.  usage: default-sigint.py COMMAND [ARG...]"""
import signal
import subprocess
import sys

signal.signal(signal.SIGINT, signal.SIG_DFL)
sys.exit(subprocess.call(sys.argv[1:]))
