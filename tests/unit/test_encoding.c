/* Data block encoders (format/dbe.h): hand-computed vectors from the layouts in
 * format-specs/encodings.md, the shared helpers, and the encoded block boundary. The
 * interop harness (SameBytes) proves whole files byte-identical to HBase's writer. */
#include "t.h"
#include "format/dbe.h"
#include "format/hfile_writer_int.h" /* the writer's encoder counters */
#include "format/kv.h"
#include "hfilegen/writer.h"
#include "util/alloc.h"
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

/* The Put runs (hfile_writer_puts.c: a row's cells after its first, encoded
 * against the one before them with dbe_run.h) against the general path, for
 * every encoding: rows of 1..9 Puts whose qualifiers share 0..29 bytes (equal
 * ones too, and one a prefix of the next), equal and unequal qualifier and
 * value lengths, equal values, values of 0..16385 bytes (cints of 1..3
 * bytes), timestamps for both of DIFF's timestamp forms, rows split over two
 * calls (the second's first cell on the full path), a row too long for the
 * run, a qualifier over 0xffff bytes, the biggest cell inside a run, and
 * blocks small enough to close inside rows. The file must equal the one hfg_writer_append makes cell by cell, and
 * each data block's payload the encoder's on copies of its cells, cut where
 * checkBlockBoundary cuts (the unencoded or the encoded size, never between
 * equal keys). */
typedef struct run_row {
  hfg_cell c;     /* row and timestamp */
  size_t first;   /* its Puts: puts[first .. first + n) */
  size_t n, split; /* split: the second call's first Put (0: one call) */
} run_row;

typedef struct run_data {
  uint8_t *arena;
  size_t used;
  hfg_put puts[4096];
  run_row rows[400];
  size_t nrows, nputs;
} run_data;

static const uint8_t *arena_put(run_data *d, const void *p, size_t n) {
  uint8_t *at = d->arena + d->used;
  if (n) memcpy(at, p, n);
  d->used += n;
  return at;
}

static int put_cmp(const void *a, const void *b) {
  const hfg_put *x = a, *y = b;
  return hfg_bytes_cmp(x->qualifier, x->qualifier_len, y->qualifier, y->qualifier_len);
}

static void make_runs(run_data *d, uint64_t seed) {
  static const char base[] = "qualifier_shared_by_many_cols";
  static const size_t vlens[] = {0, 1, 3, 8, 15, 16, 17, 127, 128, 129, 200, 16383, 16384, 16385};
  static const int64_t tss[] = {1720000000000, 0, 5, 255, 256, -5, -1000, INT64_MAX, INT64_MIN};
  static uint8_t tmp[100000];
  d->arena = malloc(64u << 20); /* 400 rows x 9 Puts x 16385 bytes at most */
  d->used = d->nrows = d->nputs = 0;
  for (size_t r = 0; r < sizeof d->rows / sizeof d->rows[0]; r++) {
    run_row *rw = &d->rows[d->nrows++];
    int len = snprintf((char *)tmp, sizeof tmp, "r%05zu", r);
    size_t pad = r == 77 ? 300 : t_rand(&seed) % 12; /* row 77: no run (prefix > 256) */
    memset(tmp + len, 'x', pad);
    memset(&rw->c, 0, sizeof rw->c);
    rw->c.row_len = (size_t)len + pad;
    rw->c.row = arena_put(d, tmp, rw->c.row_len);
    rw->c.family = (const uint8_t *)"f";
    rw->c.family_len = 1;
    rw->c.timestamp = tss[t_rand(&seed) % (sizeof tss / sizeof tss[0])];
    rw->c.type = HFG_TYPE_PUT;
    rw->first = d->nputs;
    rw->n = 1 + t_rand(&seed) % 9;
    if (r == 250 && rw->n < 3) rw->n = 3;
    for (size_t j = 0; j < rw->n; j++) { /* qualifiers: base[0..s) + 0..2 of 'a'..'c' */
      size_t s = t_rand(&seed) % 30, tail = t_rand(&seed) % 3;
      memcpy(tmp, base, s);
      for (size_t k = 0; k < tail; k++) tmp[s + k] = (uint8_t)('a' + t_rand(&seed) % 3);
      if (r == 150 && j == 1) { /* over 0xffff: the run stops, the full path takes it */
        memset(tmp, 'q', 70000);
        s = 70000;
        tail = 0;
      }
      hfg_put *p = &d->puts[d->nputs + j];
      p->qualifier_len = s + tail;
      p->qualifier = arena_put(d, tmp, p->qualifier_len);
    }
    qsort(&d->puts[d->nputs], rw->n, sizeof(hfg_put), put_cmp);
    for (size_t j = 0; j < rw->n; j++) { /* values: often the one before, or its length */
      hfg_put *p = &d->puts[d->nputs + j], *prev = j ? p - 1 : NULL;
      uint64_t how = t_rand(&seed) % 6;
      if (r == 250 && j == 2) { /* the biggest cell, inside a run */
        memset(tmp, 'v', 100000);
        p->value_len = 100000;
        p->value = arena_put(d, tmp, p->value_len);
        continue;
      }
      if (prev && how < 2) {
        p->value_len = prev->value_len; /* equal, at another address */
        p->value = arena_put(d, prev->value, prev->value_len);
        continue;
      }
      size_t vl = prev && how == 2 ? prev->value_len : vlens[t_rand(&seed) % 14];
      if (prev && how == 2 && vl) {
        memcpy(tmp, prev->value, vl);
        tmp[t_rand(&seed) % vl] ^= 1; /* same length, one byte differs */
      } else {
        for (size_t k = 0; k < vl; k++) tmp[k] = (uint8_t)('0' + t_rand(&seed) % 4);
      }
      p->value_len = vl;
      p->value = arena_put(d, tmp, vl);
    }
    rw->split = rw->n > 1 && t_rand(&seed) % 8 == 0 ? 1 + t_rand(&seed) % (rw->n - 1) : 0;
    if (r == 250) rw->split = 0;
    d->nputs += rw->n;
  }
}

static hfg_cell run_cell(const run_row *rw, const hfg_put *p) {
  hfg_cell c = rw->c;
  c.qualifier = p->qualifier;
  c.qualifier_len = p->qualifier_len;
  c.value = p->value;
  c.value_len = p->value_len;
  return c;
}

/* The data block payloads of a file with codec NONE, in order, one after the other
 * (lens: each one's length). */
static size_t data_payloads(const uint8_t *p, size_t n, hfg_buf *out, size_t *lens, size_t cap) {
  size_t k = 0;
  for (size_t off = 0; off + 33 <= n;) {
    if (!memcmp(p + off, "DATABLK", 7)) {
      size_t len = hfg_get_be32(p + off + 12);
      if (k < cap) lens[k] = len;
      k++;
      hfg_buf_append(out, p + off + 33, len);
    } else if (memcmp(p + off, "IDX", 3) && memcmp(p + off, "BLMF", 4) &&
               memcmp(p + off, "DFBL", 4)) {
      break;
    }
    off += 33 + hfg_get_be32(p + off + 8);
  }
  return k;
}

static void runs_vs_general(const run_data *d, hfg_encoding enc, uint32_t block_size,
                            hfg_bloom_type bloom) {
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.encoding = enc;
  o.block_size = block_size;
  o.bloom = bloom;
  o.bulkload_timestamp = 0;
  hfg_writer *a = NULL, *b = NULL;
  REQUIRE(hfg_writer_open_mem("f", &o, &a) == 0 && hfg_writer_open_mem("f", &o, &b) == 0);
  /* the reference blocks: the encoder on the test's own cells */
  hfg_buf want = HFG_BUF_INIT, kvs = HFG_BUF_INIT;
  size_t want_lens[4096], nwant = 0;
  hfg_dbe e;
  hfg_dbe_init(&e, enc);
  hfg_cell prev = {0};
  for (size_t r = 0; r < d->nrows; r++) {
    const run_row *rw = &d->rows[r];
    const hfg_put *ps = &d->puts[rw->first];
    size_t cut = rw->split ? rw->split : rw->n;
    CHECK(hfg_writer_append_puts(a, rw->c.row, rw->c.row_len, rw->c.timestamp, ps, cut) == 0);
    if (rw->split)
      CHECK(hfg_writer_append_puts(a, rw->c.row, rw->c.row_len, rw->c.timestamp, ps + cut,
                                   rw->n - cut) == 0);
    for (size_t j = 0; j < rw->n; j++) {
      hfg_cell c = run_cell(rw, &ps[j]);
      CHECK(hfg_writer_append(b, &c) == 0);
      int same_key = kvs.len && hfg_kv_compare(&c, &prev) == 0;
      uint64_t encoded = enc == HFG_ENCODING_NONE ? 0 : e.encoded;
      if (kvs.len && !same_key && (kvs.len >= block_size || encoded >= block_size)) {
        if (enc != HFG_ENCODING_NONE) CHECK(hfg_dbe_finish(&e, kvs.p, kvs.len) == 0);
        const hfg_buf *blk = enc == HFG_ENCODING_NONE ? &kvs : &e.out;
        hfg_buf_append(&want, blk->p, blk->len);
        if (nwant < 4096) want_lens[nwant] = blk->len;
        nwant++;
        kvs.len = 0;
      }
      if (kvs.len == 0 && enc != HFG_ENCODING_NONE) CHECK(hfg_dbe_begin(&e) == 0);
      size_t at = kvs.len, len = hfg_kv_cell_len(&c);
      CHECK(hfg_buf_reserve(&kvs, len) == 0);
      hfg_kv_put_cell(kvs.p + at, &c);
      kvs.len += len;
      if (enc != HFG_ENCODING_NONE) CHECK(hfg_dbe_add(&e, &c, kvs.p + at, at ? &prev : NULL) == 0);
      prev = c;
    }
    /* after each row, the block and the encoder's counters (the boundary reads them) */
    int same_counts = a->block.len == kvs.len && b->block.len == kvs.len;
    if (enc != HFG_ENCODING_NONE)
      same_counts = same_counts && a->dbe->unencoded == e.unencoded &&
                    a->dbe->encoded == e.encoded && a->dbe->out.len == e.out.len &&
                    b->dbe->unencoded == e.unencoded && b->dbe->encoded == e.encoded;
    if (!same_counts) {
      CHECK(same_counts);
      fprintf(stderr, "  %s, %u-byte blocks: counters differ after row %zu\n",
              hfg_encoding_name(enc), block_size, r);
      break;
    }
  }
  if (kvs.len) {
    if (enc != HFG_ENCODING_NONE) CHECK(hfg_dbe_finish(&e, kvs.p, kvs.len) == 0);
    const hfg_buf *blk = enc == HFG_ENCODING_NONE ? &kvs : &e.out;
    hfg_buf_append(&want, blk->p, blk->len);
    if (nwant < 4096) want_lens[nwant] = blk->len;
    nwant++;
  }
  CHECK(hfg_writer_finish(a) == 0 && hfg_writer_finish(b) == 0);
  size_t na, nb;
  const uint8_t *pa = hfg_writer_mem_data(a, &na), *pb = hfg_writer_mem_data(b, &nb);
  int same_file = na == nb && memcmp(pa, pb, na) == 0;
  hfg_buf got = HFG_BUF_INIT;
  size_t got_lens[4096], ngot = data_payloads(pa, na, &got, got_lens, 4096);
  int same_blocks = ngot == nwant && got.len == want.len && memcmp(got.p, want.p, got.len) == 0 &&
                    memcmp(got_lens, want_lens, (ngot < 4096 ? ngot : 4096) * sizeof(size_t)) == 0;
  CHECK(same_file);
  CHECK(same_blocks);
  CHECK(nwant > 20); /* the blocks close often enough to close inside rows */
  if (!same_file || !same_blocks)
    fprintf(stderr, "  %s, %u-byte blocks, bloom %d: file %s the general path's; %zu data blocks, "
            "the encoder %zu: %s\n", hfg_encoding_name(enc), block_size, (int)bloom,
            same_file ? "equals" : "differs from", ngot, nwant,
            same_blocks ? "same payloads" : "payloads differ");
  hfg_buf_free(&got);
  hfg_buf_free(&want);
  hfg_buf_free(&kvs);
  hfg_dbe_free(&e);
  hfg_writer_free(a);
  hfg_writer_free(b);
}

TEST(put_runs_encode_as_general_path) {
  static run_data d; /* big: not on the stack */
  make_runs(&d, 0x9e3779b97f4a7c15ull);
  REQUIRE(d.arena != NULL);
  static const uint32_t sizes[] = {64, 300, 1500, 8192};
  for (int enc = 0; enc < HFG_ENCODING_COUNT_; enc++)
    for (int s = 0; s < 4; s++)
      runs_vs_general(&d, (hfg_encoding)enc, sizes[s], s % 2 ? HFG_BLOOM_ROW : HFG_BLOOM_NONE);
  free(d.arena);
}

/* A Put out of order inside a run: the same error, at the same cell, as cell by cell. */
TEST(put_run_stops_where_general_path_fails) {
  static const char *const qs[] = {"a", "b", "ba", "b", "c"}; /* "b" after "ba" */
  for (int enc = 0; enc < HFG_ENCODING_COUNT_; enc++) {
    hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
    o.encoding = (hfg_encoding)enc;
    o.block_size = 40;
    o.bloom = HFG_BLOOM_NONE;
    o.bulkload_timestamp = 0;
    hfg_writer *a = NULL, *b = NULL;
    REQUIRE(hfg_writer_open_mem("f", &o, &a) == 0 && hfg_writer_open_mem("f", &o, &b) == 0);
    hfg_put ps[5];
    int rb = 0;
    for (int j = 0; j < 5; j++) {
      ps[j] = (hfg_put){(const uint8_t *)qs[j], strlen(qs[j]), (const uint8_t *)"value", 5};
      hfg_cell c = cell("row", qs[j], 3, HFG_TYPE_PUT, "value");
      if (!rb) rb = hfg_writer_append(b, &c);
    }
    int ra = hfg_writer_append_puts(a, (const uint8_t *)"row", 3, 3, ps, 5);
    CHECK_EQ_INT(ra, HFG_EORDER);
    CHECK_EQ_INT(ra, rb);
    CHECK(hfg_writer_entries(a) == 3 && hfg_writer_entries(b) == 3);
    CHECK(strcmp(hfg_writer_errmsg(a), hfg_writer_errmsg(b)) == 0);
    hfg_writer_free(a);
    hfg_writer_free(b);
  }
}

/* The biggest cell inside a run (file info KEY_OF_BIGGEST_CELL), one byte over the
 * row's first: its key as cell by cell. */
TEST(put_run_biggest_cell) {
  static uint8_t big[5000];
  memset(big, 'v', sizeof big);
  /* the second is the biggest by one byte, the third smaller */
  hfg_put ps[3] = {{(const uint8_t *)"a", 1, big, sizeof big - 1},
                   {(const uint8_t *)"b", 1, big, sizeof big},
                   {(const uint8_t *)"c", 1, (const uint8_t *)"y", 1}};
  for (int enc = 0; enc < HFG_ENCODING_COUNT_; enc++) {
    hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
    o.encoding = (hfg_encoding)enc;
    o.bloom = HFG_BLOOM_NONE;
    o.bulkload_timestamp = 0;
    hfg_writer *a = NULL, *b = NULL;
    REQUIRE(hfg_writer_open_mem("f", &o, &a) == 0 && hfg_writer_open_mem("f", &o, &b) == 0);
    CHECK(hfg_writer_append_puts(a, (const uint8_t *)"row", 3, 3, ps, 3) == 0);
    for (int j = 0; j < 3; j++) {
      hfg_cell c = {(const uint8_t *)"row", 3, (const uint8_t *)"f", 1, ps[j].qualifier,
                    ps[j].qualifier_len, 3, HFG_TYPE_PUT, ps[j].value, ps[j].value_len, NULL, 0};
      CHECK(hfg_writer_append(b, &c) == 0);
    }
    CHECK(a->biggest_key.len == b->biggest_key.len &&
          memcmp(a->biggest_key.p, b->biggest_key.p, b->biggest_key.len) == 0);
    CHECK(hfg_writer_finish(a) == 0 && hfg_writer_finish(b) == 0);
    size_t na, nb;
    const uint8_t *pa = hfg_writer_mem_data(a, &na), *pb = hfg_writer_mem_data(b, &nb);
    CHECK(na == nb && memcmp(pa, pb, na) == 0);
    hfg_writer_free(a);
    hfg_writer_free(b);
  }
}

/* The Nth allocation failing (util/alloc.h) inside a row's Puts: the run
 * allocates as the general path does, so the same N fails at the same cell,
 * with the same error, the same cells counted and the same bytes taken. */
static void run_faults(const run_data *d, size_t nrows, hfg_encoding enc) {
  for (long n = 1;; n++) {
    int rc[2], fired[2];
    uint64_t ent[2], bytes[2];
    char msg[2][256];
    for (int k = 0; k < 2; k++) {
      hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
      o.encoding = enc;
      o.block_size = 1 << 20; /* the growing rows in one block; the others close many */
      if (nrows > 3) o.block_size = 300;
      o.bloom = HFG_BLOOM_NONE;
      o.bulkload_timestamp = 0;
      hfg_writer *w = NULL;
      if (hfg_writer_open_mem("f", &o, &w)) return;
      hfg_fault_alloc_arm(n);
      rc[k] = 0;
      for (size_t r = 0; r < nrows && !rc[k]; r++) {
        const run_row *rw = &d->rows[r];
        const hfg_put *ps = &d->puts[rw->first];
        if (k == 0)
          rc[k] = hfg_writer_append_puts(w, rw->c.row, rw->c.row_len, rw->c.timestamp, ps, rw->n);
        for (size_t j = 0; k == 1 && j < rw->n && !rc[k]; j++) {
          hfg_cell c = run_cell(rw, &ps[j]);
          rc[k] = hfg_writer_append(w, &c);
        }
      }
      fired[k] = hfg_fault_alloc_fired();
      hfg_fault_alloc_arm(0);
      ent[k] = hfg_writer_entries(w);
      bytes[k] = hfg_writer_bytes(w);
      snprintf(msg[k], sizeof msg[k], "%s", hfg_writer_errmsg(w));
      hfg_writer_free(w);
    }
    int same = rc[0] == rc[1] && fired[0] == fired[1] && ent[0] == ent[1] &&
               bytes[0] == bytes[1] && strcmp(msg[0], msg[1]) == 0;
    if (!same) {
      CHECK(same);
      fprintf(stderr, "  %s, allocation %ld failing: rc %d / %d, %llu / %llu cells, '%s' / '%s'\n",
              hfg_encoding_name(enc), n, rc[0], rc[1], (unsigned long long)ent[0],
              (unsigned long long)ent[1], msg[0], msg[1]);
      return;
    }
    CHECK(!fired[0] || rc[0] == HFG_ENOMEM);
    if (!fired[0]) {
      CHECK(n > 5); /* the rows took some allocations */
      return;
    }
  }
}

/* Rows whose later Puts grow tenfold (qualifiers 1..1000 bytes, values 10..100000):
 * the block, the encoder's output and the biggest key grow inside the run. */
static void make_growing(run_data *d) {
  static uint8_t tmp[100000];
  d->arena = malloc(4u << 20);
  d->used = d->nrows = d->nputs = 0;
  if (!d->arena) return;
  for (size_t r = 0; r < 3; r++) {
    run_row *rw = &d->rows[d->nrows++];
    memset(&rw->c, 0, sizeof rw->c);
    tmp[0] = 'g';
    tmp[1] = (uint8_t)('0' + r);
    rw->c.row_len = 2;
    rw->c.row = arena_put(d, tmp, 2);
    rw->c.family = (const uint8_t *)"f";
    rw->c.family_len = 1;
    rw->c.timestamp = 1720000000000;
    rw->c.type = HFG_TYPE_PUT;
    rw->first = d->nputs;
    rw->n = 5;
    for (size_t j = 0, len = 1; j < 5; j++, len *= 10) {
      hfg_put *p = &d->puts[d->nputs++];
      memset(tmp, 'a' + (int)j, len < 1000 ? len : 1000);
      p->qualifier_len = len < 1000 ? len : 1000;
      p->qualifier = arena_put(d, tmp, p->qualifier_len);
      memset(tmp, 'v', len * 10);
      p->value_len = len * 10;
      p->value = arena_put(d, tmp, p->value_len);
    }
  }
}

TEST(put_run_fails_where_general_path_fails) {
  static run_data d;
  make_runs(&d, 0x2545f4914f6cdd1dull);
  REQUIRE(d.arena != NULL);
  for (int enc = 0; enc < HFG_ENCODING_COUNT_; enc++) run_faults(&d, 60, (hfg_encoding)enc);
  free(d.arena);
  make_growing(&d);
  REQUIRE(d.arena != NULL);
  for (int enc = 0; enc < HFG_ENCODING_COUNT_; enc++) run_faults(&d, 3, (hfg_encoding)enc);
  free(d.arena);
}
