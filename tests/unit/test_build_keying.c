/* Ingest's keying and payload (src/build/build_ingest.c): hfg_build_rowkey's
 * refusals (empty key, over HBase's limit, an intermediate value over the
 * scratch, a NULL key column, eval's own reasons) with *klenp 0, and
 * hfg_build_payload's layout written out here byte by byte: header, text
 * values with one-byte lengths (up to 253 bytes) or wide ones (LEN_WIDE and
 * be32: from 254 bytes, and every typed value), LEN_ABSENT for a skipped
 * empty value or a NULL (counted), an empty value stored, a typed value, its
 * error, and a buffer that must grow at every value. */
#include "build/build_internal.h"
#include "t.h"
#include "util/alloc.h"
#include "util/coding.h"

static int rowkey(const char *tmpl, const hfg_field *f, size_t nf, int nulls, size_t *klen,
                  char *why) {
  const char *cols[] = {"id", "v"};
  hfg_scheme *s;
  char err[256];
  if (hfg_scheme_compile(tmpl, cols, 2, &s, err, sizeof err)) return -1000;
  job j;
  memset(&j, 0, sizeof j);
  j.scheme = s;
  static uint8_t key[HBASE_MAX_ROW + 1];
  *klen = 12345;
  why[0] = '\0';
  int rc = hfg_build_rowkey(&j, f, nf, nulls, key, klen, why, 512);
  hfg_scheme_free(s);
  return rc;
}

TEST(rowkey_refusals) {
  char why[512];
  size_t klen;
  hfg_field f[2] = {{"42", 2, 0}, {"", 0, 0}};
  CHECK_EQ_INT(rowkey("{id % 10}|{id}", f, 2, 0, &klen, why), 0);
  CHECK(klen == 4);
  CHECK_EQ_INT(rowkey("{id % 10}|{id}", f, 2, 1, &klen, why), 0); /* no NULL among them */
  CHECK(klen == 4);
  CHECK_EQ_INT(rowkey("{v}", f, 2, 0, &klen, why), HFG_EPARSE);
  CHECK(klen == 0 && !strcmp(why, "empty rowkey"));
  CHECK_EQ_INT(rowkey("{v}", f, 2, 1, &klen, why), HFG_EPARSE);
  CHECK(klen == 0 && !strcmp(why, "empty rowkey"));
  f[1].is_null = 1;
  CHECK_EQ_INT(rowkey("{id}{v}", f, 2, 1, &klen, why), HFG_EPARSE);
  CHECK(klen == 0 && !strcmp(why, "key column 'v' is NULL"));
  CHECK_EQ_INT(rowkey("{id}", f, 2, 1, &klen, why), 0); /* v is no key column */
  CHECK(klen == 2);
  f[1].is_null = 0;
  f[0] = (hfg_field){"x", 1, 0};
  CHECK_EQ_INT(rowkey("{id % 10}|{id}", f, 2, 0, &klen, why), HFG_EPARSE);
  CHECK(klen == 0 && !strcmp(why, "column id: 'x' is not an integer"));
  CHECK_EQ_INT(rowkey("{id % 10}|{id}", f, 2, 1, &klen, why), HFG_EPARSE);
  CHECK(klen == 0 && !strcmp(why, "column id: 'x' is not an integer"));
  static char big[HBASE_MAX_ROW + 2];
  memset(big, '7', sizeof big);
  f[0] = (hfg_field){big, HBASE_MAX_ROW, 0}; /* exactly the limit */
  CHECK_EQ_INT(rowkey("{id}", f, 2, 0, &klen, why), 0);
  CHECK(klen == HBASE_MAX_ROW);
  CHECK_EQ_INT(rowkey("{id}|", f, 2, 0, &klen, why), HFG_EPARSE);
  CHECK(klen == 0 && !strcmp(why, "rowkey longer than HBase's limit of 32767 bytes"));
  f[0].len = HBASE_MAX_ROW + 1;
  CHECK_EQ_INT(rowkey("{id}", f, 2, 0, &klen, why), HFG_EPARSE);
  CHECK(klen == 0 && !strcmp(why, "rowkey longer than HBase's limit of 32767 bytes"));
  f[0].len = HFG_SCHEME_SCRATCH + 1;
  CHECK_EQ_INT(rowkey("{reverse(id)}", f, 2, 0, &klen, why), HFG_EPARSE);
  CHECK(klen == 0 && strstr(why, "template position 2: intermediate value exceeds") == why);
}

typedef struct pl_case {
  const char *text;
  size_t len;
  int is_null;
  hfg_value_encoding enc;
} pl_case;

/* The payload the layout says, written out: header, then per column. */
static size_t expected(const pl_case *c, size_t n, int store_empty, uint8_t *out,
                       uint64_t *nulls) {
  size_t k = 0;
  hfg_put_be64(out, 77);
  hfg_put_be64(out + 8, 123456);
  hfg_put_be16(out + 16, 3);
  k = 18;
  *nulls = 0;
  for (size_t i = 0; i < n; i++) {
    if (c[i].len == 0 && (c[i].is_null || !store_empty)) {
      *nulls += (uint64_t)c[i].is_null;
      out[k++] = 0xfe;
    } else if (c[i].enc == HFG_VALUE_LONG) {
      out[k] = 0xff;
      hfg_put_be32(out + k + 1, 8);
      hfg_put_be64(out + k + 5, (uint64_t)strtoll(c[i].text, NULL, 10));
      k += 13;
    } else if (c[i].len < 254) {
      out[k++] = (uint8_t)c[i].len;
      memcpy(out + k, c[i].text, c[i].len);
      k += c[i].len;
    } else {
      out[k] = 0xff;
      hfg_put_be32(out + k + 1, (uint32_t)c[i].len);
      memcpy(out + k + 5, c[i].text, c[i].len);
      k += 5 + c[i].len;
    }
  }
  return k;
}

static int payload(const pl_case *c, size_t n, int store_empty, size_t start_cap, hfg_buf *pl,
                   uint64_t *nulls, char *why) {
  hfg_build_options o;
  memset(&o, 0, sizeof o);
  o.empty = store_empty ? HFG_EMPTY_STORE : HFG_EMPTY_SKIP;
  job j;
  memset(&j, 0, sizeof j);
  j.o = &o;
  j.ts = 77;
  j.ts_column = -1;
  hfg_cellcol cols[8];
  hfg_field f[8];
  for (size_t i = 0; i < n; i++) {
    cols[i] = (hfg_cellcol){n - 1 - i, 0, "q", 1, c[i].enc, "q"}; /* fields in reverse order */
    f[n - 1 - i] = (hfg_field){c[i].text, c[i].len, c[i].is_null};
  }
  j.cols = cols;
  j.ncols = n;
  hfg_buf_free(pl); /* a buffer of exactly start_cap bytes (ASan sees a write past it) */
  if (!(pl->p = hfg_malloc(start_cap))) return -1000;
  pl->cap = start_cap;
  memcpy(pl->p, "pre", 3); /* bytes of an earlier record stay */
  pl->len = 3;
  return hfg_build_payload(&j, f, 123456, 3, pl, nulls, why, 512);
}

TEST(payload_layout) {
  static char longv[300];
  memset(longv, 'n', sizeof longv);
  const pl_case rows[][5] = {
      {{"1834814", 7, 0, HFG_VALUE_TEXT}, {"1720000000043", 13, 0, HFG_VALUE_TEXT},
       {"PAID", 4, 0, HFG_VALUE_TEXT}, {"", 0, 0, HFG_VALUE_TEXT}, {longv, 300, 0, HFG_VALUE_TEXT}},
      {{"", 0, 1, HFG_VALUE_TEXT}, {"-5", 2, 0, HFG_VALUE_LONG}, {"a", 1, 0, HFG_VALUE_TEXT},
       {"", 0, 1, HFG_VALUE_LONG}, {longv, 17, 0, HFG_VALUE_TEXT}},
      {{"", 0, 0, HFG_VALUE_TEXT}, {"", 0, 0, HFG_VALUE_TEXT}, {"ab", 2, 0, HFG_VALUE_TEXT},
       {"9", 1, 0, HFG_VALUE_LONG}, {"xyz", 3, 0, HFG_VALUE_TEXT}},
      {{longv, 253, 0, HFG_VALUE_TEXT}, {longv, 254, 0, HFG_VALUE_TEXT},
       {"", 0, 1, HFG_VALUE_TEXT}, {"-1", 2, 0, HFG_VALUE_LONG}, {longv, 255, 0, HFG_VALUE_TEXT}},
  };
  hfg_buf pl = HFG_BUF_INIT;
  for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
    for (int store = 0; store < 2; store++) {
      if (store && r == 2) continue; /* a stored empty long is no long */
      uint8_t want[2048];
      uint64_t wnulls, nulls = 99;
      size_t wlen = expected(rows[r], 5, store, want, &wnulls);
      /* every starting room: the buffer grows at the header, before any value, or never */
      for (size_t cap = 3; cap <= wlen + 8; cap++) {
        char why[512] = "";
        int rc = payload(rows[r], 5, store, cap, &pl, &nulls, why);
        int ok = rc == 0 && pl.len == 3 + wlen && !memcmp(pl.p, "pre", 3) &&
                 !memcmp(pl.p + 3, want, wlen) && nulls == wnulls;
        if (!ok) {
          fprintf(stderr, "  row %zu store %d cap %zu: rc %d (%s) len %zu want %zu nulls %llu/%llu\n",
                  r, store, cap, rc, why, pl.len, 3 + wlen, (unsigned long long)nulls,
                  (unsigned long long)wnulls);
          t_failed_now = 1;
          break;
        }
      }
    }
  }
  /* a typed value that does not parse: the column named, EPARSE */
  const pl_case bad[2] = {{"7", 1, 0, HFG_VALUE_TEXT}, {"12a", 3, 0, HFG_VALUE_LONG}};
  char why[512] = "";
  uint64_t nulls;
  CHECK_EQ_INT(payload(bad, 2, 0, 3, &pl, &nulls, why), HFG_EPARSE);
  CHECK(strstr(why, "column 1 (q): ") == why && strstr(why, "'12a' is not a long") != NULL);
  hfg_buf_free(&pl);
}

T_MAIN
