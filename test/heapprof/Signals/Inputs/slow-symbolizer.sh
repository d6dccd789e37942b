#!/bin/sh
# A symbolizer that answers nothing, slowly: it leaves a mark (if HANG_MARK
# names a file), then takes a second.
[ -n "$HANG_MARK" ] && : > "$HANG_MARK"
sleep 1
