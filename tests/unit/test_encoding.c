/* Data block encoders (format/dbe.h): hand-computed vectors from the layouts in
 * format-specs/encodings.md, the shared helpers, and the encoded block boundary. The
 * interop harness (SameBytes) proves whole files byte-identical to HBase's writer. */
#include "t.h"
#include "format/dbe.h"
#include "format/kv.h"
#include "hfilegen/writer.h"
#include "util/coding.h"

T_MAIN

static void hex_of(const uint8_t *p, size_t n, char *out) {
  for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", p[i]);
  out[2 * n] = 0;
}

static hfg_cell cell(const char *row, const char *q, int64_t ts, uint8_t type, const char *v) {
  hfg_cell c = {0};
  c.row = (const uint8_t *)row;
  c.row_len = strlen(row);
  c.family = (const uint8_t *)"f";
  c.family_len = 1;
  c.qualifier = (const uint8_t *)q;
  c.qualifier_len = strlen(q);
  c.timestamp = ts;
  c.type = type;
  c.value = (const uint8_t *)v;
  c.value_len = strlen(v);
  return c;
}

/* Encodes the cells as one block into e (initialised here), each handed over as
 * the writer lays it, with the block's previous cell. */
static void encode_block(hfg_dbe *e, hfg_encoding enc, const hfg_cell *cs, size_t n) {
  hfg_dbe_init(e, enc);
  CHECK(hfg_dbe_begin(e) == 0);
  hfg_buf kvs = HFG_BUF_INIT; /* the cells as the writer lays them, one after the other */
  for (size_t i = 0; i < n; i++) {
    size_t at = kvs.len, len = hfg_kv_cell_len(&cs[i]);
    CHECK(hfg_buf_reserve(&kvs, len) == 0);
    hfg_kv_put_cell(kvs.p + at, &cs[i]);
    kvs.len += len;
    CHECK(hfg_dbe_add(e, &cs[i], kvs.p + at, i ? &cs[i - 1] : NULL) == 0);
  }
  CHECK(hfg_dbe_finish(e, kvs.p, kvs.len) == 0);
  hfg_buf_free(&kvs);
}

/* Encodes the cells as one block and compares the payload with want (hex). */
static void vec(hfg_encoding enc, const hfg_cell *cs, size_t n, const char *want) {
  hfg_dbe e;
  encode_block(&e, enc, cs, n);
  char got[4096];
  hex_of(e.out.p, e.out.len < 2000 ? e.out.len : 2000, got);
  if (strcmp(got, want)) {
    fprintf(stderr, "  %s:\n   got  %s\n   want %s\n", hfg_encoding_name(enc), got, want);
    t_failed_now = 1;
  }
  hfg_dbe_free(&e);
}

#define KEY_A "00027231016661000000000000000104" /* r1/f:a/1/Put */

TEST(prefix_vector) {
  hfg_cell cs[2] = {cell("r1", "a", 1, HFG_TYPE_PUT, "v"), cell("r1", "b", 1, HFG_TYPE_PUT, "w")};
  /* id, unencoded 2 x 28; A: klen vlen common key value tags mvcc; B shares 6 key bytes */
  vec(HFG_ENCODING_PREFIX, cs, 2,
      "0002" "00000038" "10" "01" "00" KEY_A "76" "00" "00"
      "0a" "01" "06" "62" "0000000000000001" "04" "77" "00" "00");
}

TEST(diff_vector) {
  hfg_cell cs[3] = {cell("r1", "a", 1, HFG_TYPE_PUT, "v"), cell("r1", "b", 1, HFG_TYPE_PUT, "w"),
                    cell("r2", "a", 0x10000, HFG_TYPE_DELETE, "")};
  vec(HFG_ENCODING_DIFF, cs, 3,
      "0003" "00000053"
      /* family first; flag 0 (1-byte timestamp); klen vlen common; row with its length, the
       * qualifier (no family), ts 1 little-endian, type, value, tags, mvcc */
      "01" "66" "00" "10" "01" "00" "00027231" "61" "01" "04" "76" "00" "00"
      /* same key length, value length, type: flag 7; common 6; qualifier; ts 1 (not a diff: a
       * 0 difference is no shorter) */
      "07" "06" "62" "01" "77" "00" "00"
      /* row r2: common 3 ("\0\2r"); ts 0x10000 needs 3 bytes, the difference 1 - 0x10000 =
       * -0xffff 2 bytes: flag diff | sign | (2-1)<<4 | same key length = 0x99; vlen 0 */
      "99" "00" "03" "32" "61" "ffff" "08" "00" "00");
}

TEST(fast_diff_vector) {
  hfg_cell cs[3] = {cell("r1", "a", 1, HFG_TYPE_PUT, "v"), cell("r1", "b", 1, HFG_TYPE_PUT, "w"),
                    cell("r1", "c", 2, HFG_TYPE_PUT, "w")};
  vec(HFG_ENCODING_FAST_DIFF, cs, 3,
      "0004" "00000054"
      "00" "10" "01" "00" KEY_A "76" "00" "00"
      /* same key length, value length, type; 7 timestamp bytes shared: 0x3f */
      "3f" "06" "62" "01" "77" "00" "00"
      /* ...and the same value: 0x7f, the value omitted */
      "7f" "06" "63" "02" "00" "00");
}

TEST(row_index_vector) {
  hfg_cell cs[3] = {cell("r1", "a", 1, HFG_TYPE_PUT, "v"), cell("r1", "b", 1, HFG_TYPE_PUT, "w"),
                    cell("r2", "a", 1, HFG_TYPE_PUT, "")};
  vec(HFG_ENCODING_ROW_INDEX_V1, cs, 3,
      "0007"
      "00000010" "00000001" KEY_A "76" "0000" "00"
      "00000010" "00000001" "00027231016662000000000000000104" "77" "0000" "00"
      "00000010" "00000000" "00027232016661000000000000000104" "0000" "00"
      /* 2 rows at offsets 0 and 56; 83 bytes of cells */
      "00000002" "00000000" "00000038" "00000053");
}

TEST(tags_as_compressed_int) {
  hfg_cell c = cell("r", "q", 5, HFG_TYPE_PUT, "");
  static const uint8_t tags[3] = {0x00, 0x01, 0x07}; /* one tag: length 1, type 7 */
  c.tags = tags;
  c.tags_len = 3;
  vec(HFG_ENCODING_PREFIX, &c, 1,
      "0002" "0000001d" "0f" "00" "00" "000172016671000000000000000504" "03" "000107" "00");
}

TEST(compressed_int) {
  hfg_buf b = HFG_BUF_INIT;
  hfg_dbe_put_cint(&b, 0);
  hfg_dbe_put_cint(&b, 127);
  hfg_dbe_put_cint(&b, 128);
  hfg_dbe_put_cint(&b, 300);
  hfg_dbe_put_cint(&b, 0x7fffffff);
  char got[64];
  hex_of(b.p, b.len, got);
  CHECK(strcmp(got, "007f8001ac02ffffffff07") == 0);
  hfg_buf_free(&b);
}

TEST(long_fits) {
  CHECK_EQ_INT(hfg_dbe_long_fits(0), 1);
  CHECK_EQ_INT(hfg_dbe_long_fits(255), 1);
  CHECK_EQ_INT(hfg_dbe_long_fits(256), 2);
  CHECK_EQ_INT(hfg_dbe_long_fits(0xffffffffffffull), 6);
  CHECK_EQ_INT(hfg_dbe_long_fits(0x7fffffffffffffffull), 8);
  CHECK_EQ_INT(hfg_dbe_long_fits(0x8000000000000000ull), 8); /* Long.MIN_VALUE, negated */
}

/* findCommonPrefixInFlatKey: qualifiers of different lengths stop before the timestamp even
 * when the shorter one is a prefix; row lengths that differ share 0 or 1 byte. */
TEST(common_prefix_rules) {
  hfg_cell a = cell("r1", "a", 1, HFG_TYPE_PUT, ""), b = cell("r1", "ab", 1, HFG_TYPE_PUT, "");
  CHECK_EQ_INT(hfg_dbe_common_prefix(&b, &a, 1), 7);
  hfg_cell c = cell("r1", "a", 1, HFG_TYPE_DELETE, "");
  CHECK_EQ_INT(hfg_dbe_common_prefix(&c, &a, 1), 15);
  CHECK_EQ_INT(hfg_dbe_common_prefix(&c, &a, 0), 7);
  hfg_cell d = cell("r12", "a", 1, HFG_TYPE_PUT, "");
  CHECK_EQ_INT(hfg_dbe_common_prefix(&d, &a, 1), 1);
}

/* ROW_INDEX_V1 counts 4 bytes per row toward the block size (RowIndexEncoderV1.write), so
 * one-cell rows close blocks sooner than unencoded ones. */
static uint64_t blocks_for(hfg_encoding enc) {
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.encoding = enc;
  o.block_size = 1000;
  o.bloom = HFG_BLOOM_NONE;
  o.bulkload_timestamp = 0;
  hfg_writer *w = NULL;
  if (hfg_writer_open_mem("f", &o, &w)) return 0;
  char row[16];
  for (int i = 0; i < 200; i++) {
    snprintf(row, sizeof row, "row%05d", i);
    hfg_cell c = cell(row, "q", 1, HFG_TYPE_PUT, "0123456789");
    if (hfg_writer_append(w, &c)) break;
  }
  uint64_t blocks = 0;
  if (hfg_writer_finish(w) == 0) {
    size_t n;
    const uint8_t *p = hfg_writer_mem_data(w, &n);
    for (size_t off = 0; off + 33 <= n;) { /* count data blocks by magic */
      if (!memcmp(p + off, "DATABLK", 7)) blocks++;
      else if (memcmp(p + off, "IDX", 3) && memcmp(p + off, "BLMF", 4) && memcmp(p + off, "DFBL", 4))
        break;
      off += 33 + hfg_get_be32(p + off + 8);
    }
  }
  hfg_writer_free(w);
  return blocks;
}

TEST(row_index_block_boundary) {
  /* 200 one-cell rows of 43 unencoded bytes: 24 reach 1000 (ceil(200 / 24) = 9 blocks);
   * with 4 more per row 22 reach it (22 x 47 = 1034): ceil(200 / 22) = 10 blocks */
  CHECK_EQ_INT(blocks_for(HFG_ENCODING_NONE), 9);
  CHECK_EQ_INT(blocks_for(HFG_ENCODING_ROW_INDEX_V1), 10);
}

/* The writer hands the encoder its own laid-out cells and the block's previous
 * cell in place (hfile_writer.c note_cell): its data block payload must equal the
 * encoder's on independent copies of the same cells, for cells of the Put fast
 * path (append_puts, equal values: FAST_DIFF's same-value flag), a delete with no
 * value, tags, and a timestamp change. */
static const uint8_t tag3[3] = {0x00, 0x01, 0x07};

static void writer_vs_encoder(hfg_encoding enc) {
  hfg_cell cs[6] = {cell("r1", "a", 9, HFG_TYPE_PUT, "same"), cell("r1", "b", 9, HFG_TYPE_PUT, "same"),
                    cell("r1", "c", 9, HFG_TYPE_PUT, "other"), cell("r2", "a", 7, HFG_TYPE_DELETE, ""),
                    cell("r3", "t", 0x123456, HFG_TYPE_PUT, "same"), cell("r3", "u", 0x123456, HFG_TYPE_PUT, "same")};
  cs[4].tags = tag3;
  cs[4].tags_len = 3;
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.encoding = enc;
  o.bloom = HFG_BLOOM_NONE;
  o.bulkload_timestamp = 0;
  hfg_writer *w = NULL;
  CHECK(hfg_writer_open_mem("f", &o, &w) == 0);
  hfg_put puts[3];
  for (int i = 0; i < 3; i++)
    puts[i] = (hfg_put){cs[i].qualifier, cs[i].qualifier_len, cs[i].value, cs[i].value_len};
  CHECK(hfg_writer_append_puts(w, cs[0].row, cs[0].row_len, 9, puts, 3) == 0);
  for (int i = 3; i < 6; i++) CHECK(hfg_writer_append(w, &cs[i]) == 0);
  CHECK(hfg_writer_finish(w) == 0);
  size_t n;
  const uint8_t *p = hfg_writer_mem_data(w, &n);
  CHECK(n > 33 && memcmp(p, "DATABLKE", 8) == 0);
  size_t plen = hfg_get_be32(p + 12); /* uncompressedSizeWithoutHeader (codec NONE) */
  hfg_dbe e;
  encode_block(&e, enc, cs, 6);
  CHECK(n >= 33 + plen && plen == e.out.len && memcmp(p + 33, e.out.p, plen) == 0);
  if (plen != e.out.len || memcmp(p + 33, e.out.p, plen))
    fprintf(stderr, "  %s: the writer's block differs from the encoder's\n", hfg_encoding_name(enc));
  hfg_dbe_free(&e);
  hfg_writer_free(w);
}

TEST(writer_encodes_in_place) {
  writer_vs_encoder(HFG_ENCODING_PREFIX);
  writer_vs_encoder(HFG_ENCODING_DIFF);
  writer_vs_encoder(HFG_ENCODING_FAST_DIFF);
  writer_vs_encoder(HFG_ENCODING_ROW_INDEX_V1);
}

TEST(names) {
  hfg_encoding e;
  CHECK(hfg_encoding_parse("FAST_DIFF", &e) == 0 && e == HFG_ENCODING_FAST_DIFF);
  CHECK(hfg_encoding_parse("row-index-v1", &e) == 0 && e == HFG_ENCODING_ROW_INDEX_V1);
  CHECK(hfg_encoding_parse("prefix_tree", &e) != 0);
  CHECK_EQ_INT(hfg_encoding_hbase_id(HFG_ENCODING_ROW_INDEX_V1), 7);
  CHECK(hfg_encoding_from_id(4, &e) == 0 && e == HFG_ENCODING_FAST_DIFF);
  CHECK(hfg_encoding_from_id(6, &e) != 0); /* PREFIX_TREE, removed in HBase 2.0 */
}

/* hfg_dbe_common_prefix against the byte-at-a-time form of
 * findCommonPrefixInFlatKey: rows and qualifiers of every length to 24 that
 * differ at every position (or not at all), timestamps that share 0..8 bytes,
 * with and without the timestamp and type. */
static size_t ref_common(const uint8_t *a, size_t al, const uint8_t *b, size_t bl) {
  size_t n = al < bl ? al : bl, i = 0;
  while (i < n && a[i] == b[i]) i++;
  return i;
}

static size_t ref_prefix(const hfg_cell *c, const hfg_cell *p, int with_ts_type) {
  if (c->row_len != p->row_len) return (c->row_len >> 8) == (p->row_len >> 8) ? 1 : 0;
  size_t r = ref_common(c->row, c->row_len, p->row, p->row_len), n = 2 + r;
  if (r != c->row_len) return n;
  n += 1 + c->family_len;
  size_t q = ref_common(c->qualifier, c->qualifier_len, p->qualifier, p->qualifier_len);
  n += q;
  size_t qmax = c->qualifier_len > p->qualifier_len ? c->qualifier_len : p->qualifier_len;
  if (!with_ts_type || q != qmax) return n;
  uint8_t ta[8], tb[8];
  hfg_put_be64(ta, (uint64_t)c->timestamp);
  hfg_put_be64(tb, (uint64_t)p->timestamp);
  size_t t = ref_common(ta, 8, tb, 8);
  n += t;
  if (t == 8 && c->type == p->type) n += 1;
  return n;
}

TEST(common_prefix_matches_bytewise) {
  uint8_t ra[24], rb[24], qa[24], qb[24];
  uint32_t r = 7;
  for (int round = 0; round < 30000; round++) {
    size_t rl = 1 + round % 24, ql = (round / 24) % 25, rl2 = rl, ql2 = ql;
    for (size_t i = 0; i < 24; i++) {
      r = r * 1103515245u + 12345u;
      ra[i] = rb[i] = (uint8_t)('a' + (r >> 16) % 3);
      qa[i] = qb[i] = (uint8_t)('a' + (r >> 20) % 3);
    }
    r = r * 1103515245u + 12345u;
    size_t at = (r >> 16) % 30;
    if (at < rl) rb[at] ^= 0x80;                            /* the rows differ at `at` */
    else if (at - rl < 24) qb[at - rl < ql ? at - rl : 0] ^= 1; /* or the qualifiers */
    if (round % 7 == 0) ql2 = ql ? ql - 1 : 0;              /* a shorter qualifier */
    if (round % 11 == 0) rl2 = rl + 1 < 24 ? rl + 1 : rl;   /* another row length */
    int64_t ts = 1720000000000 + (round % 5), ts2 = ts ^ ((int64_t)(round % 9) << (8 * (round % 8)));
    hfg_cell c = {ra, rl, (const uint8_t *)"cf", 2, qa, ql, ts, HFG_TYPE_PUT, NULL, 0, NULL, 0};
    hfg_cell p = {rb, rl2, (const uint8_t *)"cf", 2, qb, ql2, ts2,
                  round % 3 ? HFG_TYPE_PUT : HFG_TYPE_DELETE, NULL, 0, NULL, 0};
    for (int wt = 0; wt < 2; wt++) CHECK_EQ_INT(hfg_dbe_common_prefix(&c, &p, wt), ref_prefix(&c, &p, wt));
  }
}
