# Property test: random valid drives under random workloads, the
# invariant checker on (tools/proptest.py says what it asserts).  A few
# hundred cases here; `make proptest` runs thousands.
. "$TOP/tests/cli/lib.inc"
need python3
case "$SSDLAB" in
*/san/*) n=120 ;;   # sanitized build: slower, fewer cases
*) n=400 ;;
esac
python3 "$TOP/tools/proptest.py" "$SSDLAB" --cases $n --seed 1
