#!/bin/sh
# Check that each program is a static executable: no program interpreter
# (PT_INTERP) and no shared library (DT_NEEDED), so that it runs on a board
# whose root filesystem is only busybox. usage: static-check.sh FILE...
set -u
st=0
for f in "$@"; do
    if [ ! -f "$f" ]; then
        echo "static-check: $f: missing"; st=1; continue
    fi
    hdr=$(readelf -hW "$f" 2>/dev/null) || { echo "static-check: $f: not an ELF file"; st=1; continue; }
    machine=$(printf '%s\n' "$hdr" | sed -n 's/^ *Machine: *//p')
    interp=$(readelf -lW "$f" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
    needed=$(readelf -dW "$f" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ')
    if [ -n "$interp" ] || [ -n "$needed" ]; then
        echo "static-check: $f ($machine): NOT static: interpreter '${interp:-none}', needs: ${needed:-nothing}"
        st=1
    else
        echo "static-check: $f ($machine): static, no interpreter, no shared library"
    fi
done
exit $st
