#!/usr/bin/env python3
"""Writes the hand-made seeds of the text fuzz targets (records, scheme,
splits, job) into tests/fuzz/corpus/<target>/seed_*. The committed corpora
also hold what libFuzzer found interesting (files named by their SHA-1).
Run from anywhere: python3 tests/fuzz/make_text_seeds.py"""
import gzip
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def put(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed_" + name), "wb") as f:
        f.write(data)


# ---- records: byte 0 = format/header/delimiter/expected columns, byte 1 = buffer/limit/split
def rec(name, c0, c1, body):
    put("records", name, bytes([c0, c1]) + body)

CSV, TSV, HDR = 0, 1, 2
DELIM = {-1: 0, ",": 1, ";": 2, "|": 3, "\t": 4, "\0": 5, " ": 6, '"': 7}
with open(os.path.join(ROOT, "samples", "orders.csv"), "rb") as f:
    orders = b"".join(f.readlines()[:25])
rec("orders_csv", CSV | HDR, 3, orders)
rec("orders_csv_tinybuf", CSV | HDR, 0, orders)
rec("orders_csv_two_inputs", CSV | HDR, 0x20 | 5, orders + orders)
rec("orders_gzip", CSV | HDR, 9, gzip.compress(orders, mtime=0))
rec("orders_gzip_concat", CSV | HDR, 2, gzip.compress(orders[:300], mtime=0) + gzip.compress(orders[300:], mtime=0))
rec("gzip_truncated", CSV | HDR, 2, gzip.compress(orders, mtime=0)[:-9])
rec("gzip_trailing_garbage", CSV, 2, gzip.compress(b"a,b\n1,2\n", mtime=0) + b"xx")
rec("csv_quotes", CSV, 1, b'a,b,c\n"x,y","he said ""hi""",3\n"multi\nline",2,3\n"bad"x,1,2\n1,"unterminated\n2,3,4\n')
rec("csv_quote_in_field", CSV, 1, b'a,b\n1,ab"c\n2,3\n')
rec("csv_crlf_bom", CSV | HDR, 4, b"\xef\xbb\xbfid,v\r\n1,a\r\n\r\n2,b\r\n3,c\r")
rec("csv_field_counts", CSV | (2 << 5), 6, b"1,2\n1,2,3\n1\n\n4,5\n")
rec("csv_semicolon", CSV | HDR | (DELIM[";"] << 2), 7, b"a;b\n1;2\n\"3;4\";5\n")
rec("csv_nul_delim", CSV | (DELIM["\0"] << 2), 7, b"a\0b\n1\0\x002\n")
rec("csv_quote_delim_refused", CSV | (DELIM['"'] << 2), 7, b'a"b\n')
rec("csv_max_record", CSV, 0x10 | 1, b"a,b\n" + b"x" * 40 + b",1\n\"" + b"y" * 50 + b"\n1,2\n")
rec("tsv_basic", TSV | HDR, 3, b"id\tname\n1\tfoo\n2\tbar\tbaz\n3\t\n")
rec("tsv_quotes_are_data", TSV, 3, b'a\t"b\n"c\t"d"\n')
rec("tsv_two_inputs_header_differs", TSV | HDR, 0x20 | 2, b"a\tb\n1\t2\nA\tB\n3\t4\n")
rec("invalid_utf8", CSV | HDR, 3, b"k,v\n1,\xff\xfe\n2,\xc3\x28\n")
rec("empty", CSV | HDR, 0, b"")
rec("only_newlines", TSV, 0, b"\n\n\r\n")

# ---- scheme: byte 0 = config, template, '\n', tab-separated field values
def sch(name, cfg, tmpl, fields):
    put("scheme", name, bytes([cfg]) + tmpl.encode() + b"\n" + b"\t".join(fields))

FIX = 0x30   # fixed columns id,user_id,created_at,amount,status,note,ts,a,b,c + splits + lint
FREE = 0x31  # columns from the template
sch("salt", FIX, "{id % 10}|{id}", [b"1420008"])
sch("salt_pad", FIX | 0x40, "{id % 10 :02}-{id}", [b"900001"])
sch("salt_reverse", FREE, "{id % 10}|{reverse(id)}", [b"1420008"])
sch("md5_hex", FREE, "{hex(md5(userId), 4)}", [b"user1"])
sch("crc_bucket", FREE | 0xc0, "{crc32(userId) % 16 :02}", [b"user1"])
sch("phoenix", FREE, "{phoenix_salt(id, 16)}", [b"1420008"])
sch("phoenix_rest", FREE, "{phoenix_salt(16)}{id}", [b"1420008"])
sch("lpad", FREE, "{lpad(id, 10, '0')}", [b"42"])
sch("lpad_too_long", FREE, "{lpad(id, 3)}", [b"123456"])
sch("murmur_bucket", FREE, "{murmur3(userId) % 16 :02}_{ts}_{eventId}", [b"user39", b"1720695600000", b"event001"])
sch("substr", FREE, "{substr(orderNo, 0, 4)}_{orderNo}_{ts}", [b"2024ORD0001", b"1720695600000"])
sch("day_bucket", FREE, "{day(ts)}_{murmur3(deviceId) % 8}_{ts}_{deviceId}", [b"1720695600000", b"dev-1"])
sch("day_fmt", FREE, "{day(created, 'yyyy-MM-dd HH:mm:ss')}", [b"2024-07-11 23:59:59"])
sch("hour_month_millis", FREE, "{hour(t)}{month(t)}{millis(s, 'yyyy-MM-dd')}", [b"1720695600000", b"2024-07-11"])
sch("desc", FREE, "{desc(ts)}", [b"1720695600000"])
sch("long_int", FREE, "{long(id)}{int(n)}", [b"1420008", b"-5"])
sch("int_overflow", FREE, "{int(n)}", [b"99999999999"])
sch("xxhash_upper", FREE, "{upper(hex(xxhash64(k), 6))}{lower(k)}", [b"AbC"])
sch("rpad", FREE, "{rpad(k, 8, 'x')}|{k :06}", [b"12"])
sch("not_integer", FIX, "{id % 10}|{id}", [b"abc"])
sch("preset_salt", FIX, "salt:id:16", [b"77"])
sch("preset_hash_prefix", FIX, "hash-prefix:md5:user_id:4", [b"", b"u1"])
sch("preset_bucket_range", FIX, "bucket-range:user_id:32:created_at:id", [b"9", b"u9", b"1720000000153"])
sch("preset_time_bucket", FIX, "time-bucket:ts:user_id:16", [b"", b"u", b"", b"", b"", b"", b"1720695600000"])
sch("escapes_literals", FREE, "a\\{b\\}c{x}\\x00", [b"v"])
sch("syntax_error", FREE, "{id % }", [b"1"])
sch("unknown_column", FIX, "{nope}", [b"1"])
sch("unknown_function", FREE, "{frobnicate(x)}", [b"1"])
sch("nested", FREE, "{hex(md5(reverse(lpad(substr(x, 1, 3), 5))), 8)}", [b"abcdef"])

# ---- splits: one escaped key per line
def spl(name, data):
    put("splits", name, data)

with open(os.path.join(ROOT, "samples", "splits", "bucket16.txt"), "rb") as f:
    spl("bucket16", f.read())
spl("escapes", b"\\x00\\x01\nA\\\\b\n\\xff\\xFF\n")
spl("blank_lines_crlf", b"1\r\n\r\n2\r\n\n3\n")
spl("not_ascending", b"b\na\n")
spl("duplicate", b"a\na\n")
spl("bad_escape", b"a\\q\n")
spl("bad_hex", b"\\x4\n")
spl("trailing_backslash", b"abc\\")
spl("empty", b"")

# ---- job files: YAML mappings of build flags
def job(name, data):
    put("job", name, data.encode() if isinstance(data, str) else data)

for n in ("orders_bucket16", "orders_md5hex16", "orders_salt10"):
    with open(os.path.join(ROOT, "samples", "jobs", n + ".yaml"), "rb") as f:
        job(n, f.read())
job("all_flags", """inputs: [a.csv, b.csv]
rowkey: "{id % 4}|{id}"
out: /tmp/x
format: tsv
delimiter: "|"
header: false
columns: [id, user, amount]
family: cf
map: [user=d:u, amount=cf:amount:double, id=-]
keep_key_columns: yes
empty: store
timestamp: 1720695600000
on_duplicate: last
rejects: /tmp/r.tsv
max_rejects: 10
memory: 64m
threads: 2
max_file_size: 1g
codec: zstd-hbase
bloom: rowcol
checksum: crc32
block_size: 16k
bytes_per_checksum: 4k
create_time: 5
quiet: true
""")
job("bad_values", "memory: 1k\ncodec: zstd\nbloom: maybe\n")
job("columns_scalar", "columns: a,b,,c\n")
job("not_a_mapping", "- a\n- b\n")
job("nested_mapping", "map:\n  note: d:note\n")
job("list_of_lists", "inputs: [[a, b]]\n")
job("anchors_aliases", "x: &a in.csv\ninputs: [*a, *a]\nrowkey: &r '{id}'\nout: *r\n")
job("unknown_key", "frobnicate: 3\n")
job("syntax_error", "a: [b\n")
job("tabs_and_unicode", "rowkey: \"{id}\\t\\u00e9\"\nout: o\n")
job("empty", "")
job("many_inputs", "inputs: [" + ", ".join("f%d.csv" % i for i in range(70)) + "]\n")
