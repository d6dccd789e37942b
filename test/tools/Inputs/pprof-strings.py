"""Prints the string table of a gzipped pprof profile, one "string: S" line
each, and "invalid UTF-8: BYTES" for a string that is not valid UTF-8
(profile.proto is proto3: a strict reader, protobuf's own, rejects such a
profile whole).  Exit status 1 if any is invalid.  Reads the wire format
itself: Profile's field 6 is string_table.

usage: pprof-strings.py FILE
"""
import gzip
import sys


def varint(data, i):
    shift = value = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, i


data = gzip.open(sys.argv[1]).read()
i = 0
bad = 0
while i < len(data):
    key, i = varint(data, i)
    field, wire = key >> 3, key & 7
    if wire == 0:
        _, i = varint(data, i)
    elif wire == 1:
        i += 8
    elif wire == 5:
        i += 4
    elif wire == 2:
        n, i = varint(data, i)
        payload = data[i:i + n]
        i += n
        if field == 6:
            try:
                print("string: " + payload.decode("utf-8"))
            except UnicodeDecodeError:
                print("invalid UTF-8: %r" % payload)
                bad = 1
    else:
        sys.exit("pprof-strings.py: wire type %d at offset %d" % (wire, i))
sys.exit(bad)
