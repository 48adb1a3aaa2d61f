#!/usr/bin/env python3
"""Lays an HBase snapshot of a build's output out as an HBase root directory, for the
rekey CLI tests (tests/cli/rekey*.sh).

  rekey_snapshot.py BUILD_DIR ROOT [--split-row ROW] [--layout data|regions]
                    [--ref-files] [--family-attr FAM:KEY=VALUE ...]

BUILD_DIR is `hfilegen build --splits` output with exactly two regions (manifest.json
names each file's region). ROOT receives table default:old and snapshot s1 (v2):
  region A [start, S)  the build's region-0 files: family cf as a plain store file,
                       every other family as an HFileLink old=<L>-<file> into region L
  region P [S, end)    the build's region-1 files; offline and split (skipped by readers)
  region B [S, ROW)    bottom references <file>.<P> to P's files
  region C [ROW, end)  top references <file>.<P>
with S the build's split key. With --ref-files the manifest lists the references
without the Reference (a v1-style entry) and the daughters' reference files
(PBUF + FSProtos.Reference) hold it under data/. --layout data writes .hbase-snapshot/s1/data.manifest;
regions writes one region-manifest.<region> per region and .tabledesc (a snapshot copied
while it was being taken). The manifests are protobuf encoded here by hand from the field
numbers of format-specs/snapshot.proto (no protobuf package needed). Prints, one a line,
NAME=PATH of the files a test may break: PLAIN (region A's cf file), LINK (the link's
target under data/), PARENT (P's cf file, the references' target), DATA_MANIFEST or
REGION_MANIFEST (region A's), LINK_NAME (the link's name in the manifest), REF_FILE (region
B's cf reference file, with --ref-files).
"""
import argparse
import hashlib
import json
import os
import shutil
import sys

NS, QUAL, SNAP = "default", "old", "s1"


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def fld(num, data):  # length-delimited (wire type 2)
    if isinstance(data, str):
        data = data.encode()
    return varint(num << 3 | 2) + varint(len(data)) + data


def num(n, v):  # varint (wire type 0)
    return varint(n << 3) + varint(v)


def table_name():
    return fld(1, NS) + fld(2, QUAL)


def region_info(rid, start, end, offline=False, split=False):
    return (num(1, rid) + fld(2, table_name()) + fld(3, start) + fld(4, end) +
            num(5, int(offline)) + num(6, int(split)))


def encoded(start, rid):  # md5 of "<table>,<start>,<id>", the table without default:
    return hashlib.md5(("%s,%s,%d" % (QUAL, start, rid)).encode()).hexdigest()


def split_key(row):  # KeyValueUtil.createFirstOnRow(row).getKey()
    r = row.encode()
    return len(r).to_bytes(2, "big") + r + b"\x00" + b"\x7f" + b"\xff" * 7 + b"\xff"


def reference(row, top):  # FSProtos.Reference: range TOP 0, BOTTOM 1
    return fld(1, split_key(row)) + num(2, 0 if top else 1)


def store_file(name, size, ref=None):
    b = fld(1, name)
    if ref is not None:  # (row, top)
        b += fld(2, reference(*ref))
    return b + num(3, size)


def region_manifest(rid, start, end, files, offline=False, split=False):
    """files: {family: [store_file bytes]}"""
    b = num(1, 2) + fld(2, region_info(rid, start, end, offline, split))
    for fam in sorted(files):
        b += fld(3, fld(1, fam) + b"".join(fld(2, f) for f in files[fam]))
    return b


def schema(families, attrs):
    b = fld(1, table_name())
    for fam in families:
        cf = fld(1, fam)
        for k, v in attrs.get(fam, []):
            cf += fld(2, fld(1, k) + fld(2, v))
        b += fld(3, cf)
    return b


def put(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build_dir")
    ap.add_argument("root")
    ap.add_argument("--split-row")
    ap.add_argument("--layout", choices=["data", "regions"], default="data")
    ap.add_argument("--ref-files", action="store_true")
    ap.add_argument("--family-attr", action="append", default=[])
    a = ap.parse_args()
    m = json.load(open(os.path.join(a.build_dir, "manifest.json")))
    if len(m["splits"]) != 1:
        sys.exit("rekey_snapshot.py: the build needs exactly one split key")
    s = m["splits"][0]
    row = a.split_row or s + "5"
    if not (s < row):
        sys.exit("rekey_snapshot.py: --split-row must sort after the split key %r" % s)
    files = {0: {}, 1: {}}
    for f in m["files"]:
        files[f["region"]].setdefault(f["family"], []).append(f["file"])
    families = sorted(set(files[0]) | set(files[1]))
    attrs = {}
    for fa in a.family_attr:
        fam, kv = fa.split(":", 1)
        k, v = kv.split("=", 1)
        attrs.setdefault(fam, []).append((k, v))
    tdir = os.path.join(a.root, "data", NS, QUAL)
    t0 = 1700000000000
    ra, rp, rb, rc, rl = t0 + 1, t0 + 2, t0 + 3, t0 + 3, t0 + 4
    ea, ep, eb, ec = encoded("", ra), encoded(s, rp), encoded(s, rb), encoded(row, rc)
    el = encoded("", rl)  # the region links point into (not in the snapshot)
    printed = {}
    man_a, man_p, man_b, man_c = {}, {}, {}, {}
    for fam in families:
        man_a[fam], man_p[fam], man_b[fam], man_c[fam] = [], [], [], []
        for rel in files[0].get(fam, []):
            name = os.path.basename(rel)
            src = os.path.join(a.build_dir, rel)
            size = os.path.getsize(src)
            if fam == "cf":
                dst = os.path.join(tdir, ea, fam, name)
                man_a[fam].append(store_file(name, size))
                printed.setdefault("PLAIN", dst)
            else:
                dst = os.path.join(tdir, el, fam, name)
                link = "%s=%s-%s" % (QUAL, el, name)
                man_a[fam].append(store_file(link, size))
                printed.setdefault("LINK", dst)
                printed.setdefault("LINK_NAME", link)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
        for rel in files[1].get(fam, []):
            name = os.path.basename(rel)
            src = os.path.join(a.build_dir, rel)
            size = os.path.getsize(src)
            dst = os.path.join(tdir, ep, fam, name)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)
            if fam == "cf":
                printed.setdefault("PARENT", dst)
            man_p[fam].append(store_file(name, size))
            ref = "%s.%s" % (name, ep)
            if a.ref_files:
                man_b[fam].append(store_file(ref, size))
                man_c[fam].append(store_file(ref, size))
                for enc, top in ((eb, False), (ec, True)):
                    p = os.path.join(tdir, enc, fam, ref)
                    put(p, b"PBUF" + reference(row, top))
                    if fam == "cf" and enc == eb:
                        printed["REF_FILE"] = p
            else:
                man_b[fam].append(store_file(ref, size, (row, False)))
                man_c[fam].append(store_file(ref, size, (row, True)))
    regions = [
        (ea, region_manifest(ra, "", s, man_a)),
        (ep, region_manifest(rp, s, "", man_p, offline=True, split=True)),
        (eb, region_manifest(rb, s, row, man_b)),
        (ec, region_manifest(rc, row, "", man_c)),
    ]
    sdir = os.path.join(a.root, ".hbase-snapshot", SNAP)
    put(os.path.join(sdir, ".snapshotinfo"),
        fld(1, SNAP) + fld(2, QUAL) + num(3, t0 + 10) + num(4, 1) + num(5, 2))
    ts = schema(families, attrs)
    if a.layout == "data":
        p = os.path.join(sdir, "data.manifest")
        put(p, fld(1, ts) + b"".join(fld(2, r) for _, r in regions))
        printed["DATA_MANIFEST"] = p
    else:
        put(os.path.join(sdir, ".tabledesc", ".tableinfo.0000000001"), b"PBUF" + ts)
        for enc, r in regions:
            p = os.path.join(sdir, "region-manifest." + enc)
            put(p, r)
            if enc == ea:
                printed["REGION_MANIFEST"] = p
    for k in sorted(printed):
        print("%s=%s" % (k, printed[k]))


if __name__ == "__main__":
    main()
