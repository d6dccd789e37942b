"""CPython's view of SIGINT and SIGSEGV, then a SIGINT to itself: CPython
takes SIGINT (KeyboardInterrupt) only when it finds the default action."""
import os
import signal
import time

print(signal.getsignal(signal.SIGINT) is signal.default_int_handler,
      signal.getsignal(signal.SIGSEGV))
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(5)
except KeyboardInterrupt:
    print("KeyboardInterrupt caught")
