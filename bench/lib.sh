# Sourced by the bench scripts: what they share.

# A size as the scripts take it (1G, 256M, 64k, 1000; binary units, a trailing B allowed)
# in bytes.
bench_bytes() {
  python3 -c '
import sys
s = sys.argv[1].strip().upper().rstrip("B")
m = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(s[-1:], 1)
print(int(float(s[:-1] if s[-1:] in "KMG" else s) * m))' "$1"
}
