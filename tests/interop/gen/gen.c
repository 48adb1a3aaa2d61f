/*
 * hfg_interop_gen OUTDIR: writes the C side of the HBase interop matrix.
 *
 *   OUTDIR/read/<case>.hfile      written by hfilegen's writer
 *   OUTDIR/read/<case>.cells.tsv  the same cells, written straight from the
 *                                 generator (not from the HFile), escaped as
 *                                 tests/interop/README.md describes
 *   OUTDIR/read/<case>.props      codec, bloom, checksum, sizes
 *   OUTDIR/bulk/<case>/           a bulk-load case: out/<family>/<files>,
 *                                 splits.txt, table.props, expected.tsv, gets.txt
 *
 * HBase's reader (tests/interop, ReadCheck) compares every file with its TSV,
 * and BulkLoadCheck loads the bulk cases into a pre-split mini cluster.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format/codec.h"
#include "format/kv.h"
#include "hfilegen/writer.h"
#include "util/escape.h"

typedef struct gcell {
  uint8_t *row;
  size_t row_len;
  char qual[32];
  size_t qual_len;
  int64_t ts;
  uint8_t type;
  uint8_t *value;
  size_t value_len;
  uint8_t tags[16];
  size_t tags_len;
} gcell;

typedef struct cellset {
  gcell *c;
  size_t n, cap;
} cellset;

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static void die(const char *what) {
  fprintf(stderr, "hfg_interop_gen: %s: %s\n", what, strerror(errno));
  exit(2);
}

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) die("malloc");
  return p;
}

static gcell *add(cellset *s) {
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 1024;
    s->c = realloc(s->c, s->cap * sizeof *s->c);
    if (!s->c) die("realloc");
  }
  gcell *g = &s->c[s->n++];
  memset(g, 0, sizeof *g);
  return g;
}

static void set_bytes(uint8_t **dst, size_t *len, const void *src, size_t n) {
  *dst = xmalloc(n);
  memcpy(*dst, src, n);
  *len = n;
}

static void free_set(cellset *s) {
  for (size_t i = 0; i < s->n; i++) {
    free(s->c[i].row);
    free(s->c[i].value);
  }
  free(s->c);
  s->c = NULL;
  s->n = s->cap = 0;
}

static hfg_cell to_cell(const gcell *g, const char *family) {
  hfg_cell c = {g->row, g->row_len, (const uint8_t *)family, strlen(family),
                (const uint8_t *)g->qual, g->qual_len, g->ts, g->type,
                g->value, g->value_len, g->tags_len ? g->tags : NULL, g->tags_len};
  return c;
}

static const char *family_g;
static int cmp_gcell(const void *a, const void *b) {
  hfg_cell x = to_cell(a, family_g), y = to_cell(b, family_g);
  return hfg_kv_compare(&x, &y);
}

/* Cell sets ---------------------------------------------------------------- */

typedef struct spec {
  size_t rows;
  int quals;          /* qualifiers per row */
  int value_len;      /* < 0: random 0..-value_len */
  int row_len;        /* 0: "row%09zu"; > 0: padded long rows */
  int binary_rows;    /* rows with bytes >= 0x80 and 0x00 */
  int versions;       /* timestamps per column */
  int deletes;        /* mix in Delete/DeleteColumn/DeleteFamily cells */
  int tags;           /* non-empty tags on some cells */
  size_t big_value;   /* one cell with a value this large */
} spec;

static void make_cells(const spec *sp, cellset *s) {
  for (size_t r = 0; r < sp->rows; r++) {
    uint8_t row[1100];
    size_t rl;
    if (sp->binary_rows) {
      row[0] = (uint8_t)(r >> 8);
      row[1] = (uint8_t)r;
      row[2] = (uint8_t)(0x80 | (r % 0x80));
      row[3] = 0x00;
      row[4] = 0xff;
      rl = 5 + (r % 3); /* vary tail lengths for the bloom hash tail */
      for (size_t k = 5; k < rl; k++) row[k] = (uint8_t)(0xf0 + k);
    } else {
      rl = (size_t)snprintf((char *)row, sizeof row, "row%09zu", r);
      if (sp->row_len > 0) {
        memset(row + rl, 'x', (size_t)sp->row_len - rl);
        rl = (size_t)sp->row_len;
      }
    }
    if (sp->deletes && r % 7 == 3) {
      gcell *g = add(s);
      set_bytes(&g->row, &g->row_len, row, rl);
      g->ts = 1700000000500;
      g->type = HFG_TYPE_DELETE_FAMILY;
    }
    for (int q = 0; q < sp->quals; q++) {
      for (int v = 0; v < sp->versions; v++) {
        gcell *g = add(s);
        set_bytes(&g->row, &g->row_len, row, rl);
        g->qual_len = (size_t)snprintf(g->qual, sizeof g->qual, "q%04d", q);
        g->ts = 1700000000000 - v * 1000;
        g->type = HFG_TYPE_PUT;
        if (sp->deletes && (r + q) % 5 == 0 && v == 0) g->type = HFG_TYPE_DELETE_COLUMN;
        if (sp->deletes && (r + q) % 5 == 1 && v == 0) g->type = HFG_TYPE_DELETE;
        size_t vl = sp->value_len >= 0 ? (size_t)sp->value_len
                                       : (size_t)(rnd() % (uint64_t)(-sp->value_len + 1));
        if (sp->big_value && r == sp->rows / 2 && q == 0 && v == 0) vl = sp->big_value;
        if (g->type != HFG_TYPE_PUT) vl = 0;
        g->value = xmalloc(vl);
        g->value_len = vl;
        for (size_t k = 0; k < vl; k++) g->value[k] = (uint8_t)("value-abcdefghij\t\n\\\x01\xfe"[(k + r) % 21]);
        if (sp->tags && (r + q) % 3 == 0) {
          /* one tag: len16 (type + value), type 1 (ACL-like), value "tg" + r%10 */
          g->tags[0] = 0;
          g->tags[1] = 4;
          g->tags[2] = 1;
          g->tags[3] = 't';
          g->tags[4] = 'g';
          g->tags[5] = (uint8_t)('0' + r % 10);
          g->tags_len = 6;
        }
      }
    }
  }
  qsort(s->c, s->n, sizeof *s->c, cmp_gcell);
}

/* Output ------------------------------------------------------------------- */

static void put_escaped(FILE *f, const uint8_t *p, size_t n) {
  if (hfg_escape_fputs(f, p, n)) die("write tsv");
}

static void write_tsv_line(FILE *f, const gcell *g, const char *family) {
  put_escaped(f, g->row, g->row_len);
  fputc('\t', f);
  put_escaped(f, (const uint8_t *)family, strlen(family));
  fputc('\t', f);
  put_escaped(f, (const uint8_t *)g->qual, g->qual_len);
  fprintf(f, "\t%" PRId64 "\t%s\t", g->ts, hfg_cell_type_name(g->type));
  put_escaped(f, g->value, g->value_len);
  fputc('\t', f);
  put_escaped(f, g->tags, g->tags_len);
  fputc('\n', f);
}

static int write_hfile(const char *path, const char *family, const hfg_writer_options *o,
                       const gcell *c, size_t n) {
  hfg_writer *w;
  int rc = hfg_writer_open(path, family, o, &w);
  for (size_t i = 0; !rc && i < n; i++) {
    hfg_cell cell = to_cell(&c[i], family);
    rc = hfg_writer_append(w, &cell);
  }
  if (!rc) rc = hfg_writer_finish(w);
  if (rc) fprintf(stderr, "hfg_interop_gen: %s: %s\n", path, w ? hfg_writer_errmsg(w) : "open");
  hfg_writer_free(w);
  return rc;
}

static const char *framing(hfg_codec c) {
  return c == HFG_CODEC_ZSTD_HADOOP ? "hadoop" : c == HFG_CODEC_ZSTD_HBASE ? "hbase" : NULL;
}

static const char *hbase_codec(hfg_codec c) {
  switch (c) {
    case HFG_CODEC_NONE: return "none";
    case HFG_CODEC_GZ: return "gz";
    case HFG_CODEC_SNAPPY: return "snappy";
    case HFG_CODEC_LZ4: return "lz4";
    default: return "zstd";
  }
}

static void write_props(FILE *f, const hfg_writer_options *o, const char *prefix) {
  fprintf(f, "%scodec=%s\n", prefix, hbase_codec(o->codec));
  if (framing(o->codec)) fprintf(f, "%szstd_framing=%s\n", prefix, framing(o->codec));
  fprintf(f, "%sbloom=%s\n", prefix, hfg_bloom_type_name(o->bloom));
  fprintf(f, "%schecksum=%s\n", prefix, hfg_checksum_type_name(o->checksum));
  fprintf(f, "%sbytes_per_checksum=%u\n", prefix, o->bytes_per_checksum);
  fprintf(f, "%sblock_size=%u\n", prefix, o->block_size);
  fprintf(f, "%sbloom_error_rate=%g\n", prefix, (double)o->bloom_error_rate);
  if (o->encoding != HFG_ENCODING_NONE)
    fprintf(f, "%sencoding=%s\n", prefix, hfg_encoding_hbase_name(o->encoding));
  if (o->bloom == HFG_BLOOM_ROWPREFIX) fprintf(f, "%sbloom_param=%u\n", prefix, o->bloom_prefix_length);
}

static FILE *open_out(const char *dir, const char *name, const char *ext) {
  char path[8192];
  snprintf(path, sizeof path, "%s/%s%s", dir, name, ext);
  FILE *f = fopen(path, "w");
  if (!f) die(path);
  return f;
}

static int failures;

static int same_bytes_g; /* read_case marks its file for SameBytes */

static void read_case(const char *dir, const char *name, const spec *sp, hfg_writer_options o,
                      int expect_levels) {
  cellset s = {0};
  family_g = "cf";
  make_cells(sp, &s);
  char path[8192];
  snprintf(path, sizeof path, "%s/%s.hfile", dir, name);
  o.bulkload_timestamp = 1700000000000;
  if (write_hfile(path, "cf", &o, s.c, s.n)) failures++;
  FILE *t = open_out(dir, name, ".cells.tsv");
  for (size_t i = 0; i < s.n; i++) write_tsv_line(t, &s.c[i], "cf");
  if (fclose(t)) die("close tsv");
  FILE *p = open_out(dir, name, ".props");
  write_props(p, &o, "");
  fprintf(p, "family=cf\n");
  if (expect_levels) fprintf(p, "index_levels=%d\n", expect_levels);
  if (same_bytes_g) fprintf(p, "same_bytes=1\n");
  if (fclose(p)) die("close props");
  free_set(&s);
}

static void mkdir_p(const char *path) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s", path);
  for (char *p = tmp + 1; *p; p++) {
    if (*p == '/') {
      *p = 0;
      if (mkdir(tmp, 0755) && errno != EEXIST) die(tmp);
      *p = '/';
    }
  }
  if (mkdir(tmp, 0755) && errno != EEXIST) die(tmp);
}

static void read_matrix(const char *out) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/read", out);
  mkdir_p(dir);
  spec base = {.rows = 3000, .quals = 3, .value_len = -40, .versions = 1};
  const hfg_codec codecs[] = {HFG_CODEC_NONE, HFG_CODEC_GZ, HFG_CODEC_SNAPPY, HFG_CODEC_LZ4,
                              HFG_CODEC_ZSTD_HBASE, HFG_CODEC_ZSTD_HADOOP};
  const hfg_bloom_type blooms[] = {HFG_BLOOM_NONE, HFG_BLOOM_ROW, HFG_BLOOM_ROWCOL};
  for (size_t c = 0; c < sizeof codecs / sizeof *codecs; c++) {
    for (size_t b = 0; b < 3; b++) {
      hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
      o.codec = codecs[c];
      o.bloom = blooms[b];
      o.block_size = 8192;
      char name[128];
      snprintf(name, sizeof name, "%s_%s", hfg_codec_name(o.codec), hfg_bloom_type_name(o.bloom));
      read_case(dir, name, &base, o, 1);
    }
  }
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  /* CRC32 checksums with small checksum chunks. */
  o.checksum = HFG_CHECKSUM_CRC32;
  o.bytes_per_checksum = 512;
  o.codec = HFG_CODEC_GZ;
  read_case(dir, "crc32_bpc512_gz", &base, o, 0);
  /* GZ on the opt-in ISA-L engine (--gz-impl isal): 64 KiB blocks, so igzip encodes them
   * (it takes blocks of 4 KiB and more); valid GZ that HBase must read, not HBase's bytes. */
  if (hfg_gz_isal_available()) {
    o = (hfg_writer_options)HFG_WRITER_OPTIONS_INIT;
    o.codec = HFG_CODEC_GZ;
    o.gz_impl = HFG_GZ_ISAL;
    read_case(dir, "gz_isal_64k", &base, o, 0);
  }
  /* Multi-level index: tiny blocks and tiny index chunks. */
  o = (hfg_writer_options)HFG_WRITER_OPTIONS_INIT;
  o.block_size = 1024;
  o.index_block_max_size = 1024;
  o.codec = HFG_CODEC_LZ4;
  read_case(dir, "index2_lz4", &(spec){.rows = 3000, .quals = 2, .value_len = 20, .versions = 1},
            o, 2);
  o.index_block_max_size = 256;
  o.block_size = 512;
  read_case(dir, "index3_none", &(spec){.rows = 6000, .quals = 1, .value_len = 30, .versions = 1},
            (hfg_writer_options){.version = HFG_WRITER_OPTIONS_VERSION,
                                 .codec = HFG_CODEC_NONE, .codec_level = -1,
                                 .checksum = HFG_CHECKSUM_CRC32C, .bytes_per_checksum = 16384,
                                 .block_size = 512, .index_block_max_size = 256,
                                 .index_min_entries = 16, .bloom = HFG_BLOOM_ROW,
                                 .bloom_error_rate = 0.01f, .bloom_block_size = 131072,
                                 .bloom_max_fold = 7, .bulkload_timestamp = -1,
                                 .major_compaction = 1, .fsync = 0},
            3);
  /* Multi-chunk blooms: > 109306 rows per chunk. */
  o = (hfg_writer_options)HFG_WRITER_OPTIONS_INIT;
  o.codec = HFG_CODEC_LZ4;
  read_case(dir, "bloom_multichunk_row_lz4",
            &(spec){.rows = 240000, .quals = 1, .value_len = 8, .versions = 1}, o, 0);
  o.bloom = HFG_BLOOM_ROWCOL;
  read_case(dir, "bloom_multichunk_rowcol_snappy",
            &(spec){.rows = 60000, .quals = 3, .value_len = 4, .versions = 1},
            (hfg_writer_options){.version = HFG_WRITER_OPTIONS_VERSION,
                                 .codec = HFG_CODEC_SNAPPY, .codec_level = -1,
                                 .checksum = HFG_CHECKSUM_CRC32C, .bytes_per_checksum = 16384,
                                 .block_size = 65536, .index_block_max_size = 131072,
                                 .index_min_entries = 16, .bloom = HFG_BLOOM_ROWCOL,
                                 .bloom_error_rate = 0.01f, .bloom_block_size = 131072,
                                 .bloom_max_fold = 7, .bulkload_timestamp = -1,
                                 .major_compaction = 1, .fsync = 0},
            0);
  /* Shapes: empty values, large values, long keys, many qualifiers, binary
   * rows, versions, deletes, tags. */
  o = (hfg_writer_options)HFG_WRITER_OPTIONS_INIT;
  o.codec = HFG_CODEC_GZ;
  read_case(dir, "empty_values_gz", &(spec){.rows = 2000, .quals = 2, .value_len = 0, .versions = 1},
            o, 0);
  o.codec = HFG_CODEC_LZ4;
  read_case(dir, "large_value_lz4",
            &(spec){.rows = 20, .quals = 2, .value_len = 100, .versions = 1, .big_value = 3 << 20},
            o, 0);
  o.codec = HFG_CODEC_SNAPPY;
  read_case(dir, "large_value_snappy",
            &(spec){.rows = 20, .quals = 2, .value_len = 100, .versions = 1, .big_value = 2 << 20},
            o, 0);
  o.codec = HFG_CODEC_ZSTD_HBASE;
  read_case(dir, "long_keys_zstd", &(spec){.rows = 500, .quals = 2, .value_len = 10, .row_len = 1000,
                                           .versions = 1}, o, 0);
  o.codec = HFG_CODEC_NONE;
  read_case(dir, "many_qualifiers_none", &(spec){.rows = 50, .quals = 300, .value_len = 5,
                                                 .versions = 1}, o, 0);
  o.codec = HFG_CODEC_GZ;
  read_case(dir, "binary_rows_gz", &(spec){.rows = 5000, .quals = 1, .value_len = 7,
                                           .binary_rows = 1, .versions = 1}, o, 0);
  o.bloom = HFG_BLOOM_ROWCOL;
  read_case(dir, "binary_rows_rowcol_gz", &(spec){.rows = 5000, .quals = 2, .value_len = 7,
                                                  .binary_rows = 1, .versions = 1}, o, 0);
  o.bloom = HFG_BLOOM_ROW;
  o.codec = HFG_CODEC_LZ4;
  read_case(dir, "versions_deletes_tags_lz4",
            &(spec){.rows = 3000, .quals = 3, .value_len = 12, .versions = 3, .deletes = 1,
                    .tags = 1}, o, 0);
}

/* Data block encodings (issue #14): every encoding x {NONE, GZ, SNAPPY, LZ4} x {ROW, ROWCOL},
 * each file also marked for SameBytes (byte-identical to HBase's StoreFileWriter), plus one
 * file per encoding with versions, every delete type, tags and empty values. */
static void encoding_matrix(const char *out) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/read", out);
  mkdir_p(dir);
  spec base = {.rows = 3000, .quals = 3, .value_len = -40, .versions = 1};
  const hfg_codec codecs[] = {HFG_CODEC_NONE, HFG_CODEC_GZ, HFG_CODEC_SNAPPY, HFG_CODEC_LZ4};
  const hfg_bloom_type blooms[] = {HFG_BLOOM_ROW, HFG_BLOOM_ROWCOL};
  same_bytes_g = 1;
  for (int e = 0; e < HFG_ENCODING_COUNT_; e++) {
    for (size_t c = 0; c < sizeof codecs / sizeof *codecs; c++) {
      for (size_t b = 0; b < sizeof blooms / sizeof *blooms; b++) {
        hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
        o.encoding = (hfg_encoding)e;
        o.codec = codecs[c];
        o.bloom = blooms[b];
        o.block_size = 8192;
        char name[128];
        snprintf(name, sizeof name, "enc_%s_%s_%s", hfg_encoding_name(o.encoding),
                 hfg_codec_name(o.codec), hfg_bloom_type_name(o.bloom));
        read_case(dir, name, &base, o, 0);
      }
    }
    hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
    o.encoding = (hfg_encoding)e;
    o.codec = HFG_CODEC_LZ4;
    o.block_size = 4096;
    char name[128];
    snprintf(name, sizeof name, "enc_%s_shapes_lz4", hfg_encoding_name(o.encoding));
    read_case(dir, name,
              &(spec){.rows = 1500, .quals = 3, .value_len = 12, .versions = 3, .deletes = 1,
                      .tags = 1},
              o, 0);
    snprintf(name, sizeof name, "enc_%s_empty_values_none", hfg_encoding_name(o.encoding));
    o.codec = HFG_CODEC_NONE;
    read_case(dir, name, &(spec){.rows = 2000, .quals = 2, .value_len = 0, .versions = 1}, o, 0);
  }
  /* ROWPREFIX_FIXED_LENGTH blooms: a prefix shorter than the rows (30 prefixes of 3000 rows),
   * and one longer than every row (the whole row) */
  const hfg_encoding pe[] = {HFG_ENCODING_NONE, HFG_ENCODING_FAST_DIFF, HFG_ENCODING_ROW_INDEX_V1};
  for (size_t e = 0; e < sizeof pe / sizeof *pe; e++) {
    for (size_t c = 0; c < sizeof codecs / sizeof *codecs; c++) {
      hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
      o.encoding = pe[e];
      o.codec = codecs[c];
      o.bloom = HFG_BLOOM_ROWPREFIX;
      o.bloom_prefix_length = 10;
      o.block_size = 8192;
      char name[128];
      snprintf(name, sizeof name, "rowprefix10_%s_%s", hfg_encoding_name(o.encoding),
               hfg_codec_name(o.codec));
      read_case(dir, name, &base, o, 0);
    }
  }
  hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
  o.bloom = HFG_BLOOM_ROWPREFIX;
  o.bloom_prefix_length = 40;
  o.codec = HFG_CODEC_LZ4;
  o.block_size = 4096;
  read_case(dir, "rowprefix40_shapes_lz4",
            &(spec){.rows = 1500, .quals = 3, .value_len = 12, .versions = 3, .deletes = 1,
                    .tags = 1},
            o, 0);
  same_bytes_g = 0;
}

/* Bulk-load case: mod-10 salted keys "b|id" over 10 regions, two families. */
static void bulk_case(const char *out, const char *name, hfg_encoding enc_cf,
                      hfg_encoding enc_meta, uint32_t cf_rowprefix) {
  const hfg_encoding encs[] = {enc_cf, enc_meta};
  if (strlen(out) > 1900) {
    errno = ENAMETOOLONG;
    die(out);
  }
  char dir[2048], path[4096];
  snprintf(dir, sizeof dir, "%s/bulk/%s", out, name);
  const char *families[] = {"cf", "meta"};
  const hfg_codec codecs[] = {HFG_CODEC_LZ4, HFG_CODEC_GZ};
  const hfg_bloom_type blooms[] = {HFG_BLOOM_ROW, HFG_BLOOM_ROWCOL};
  FILE *sp = NULL;
  snprintf(path, sizeof path, "%s/splits.txt", dir);
  mkdir_p(dir);
  sp = fopen(path, "w");
  if (!sp) die(path);
  for (int b = 1; b < 10; b++) fprintf(sp, "%d\n", b);
  fclose(sp);
  snprintf(path, sizeof path, "%s/table.props", dir);
  FILE *tp = fopen(path, "w");
  if (!tp) die(path);
  fprintf(tp, "families=cf,meta\n");
  for (int f = 0; f < 2; f++) {
    hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
    o.codec = codecs[f];
    o.bloom = blooms[f];
    o.encoding = encs[f];
    if (f == 0 && cf_rowprefix) {
      o.bloom = HFG_BLOOM_ROWPREFIX;
      o.bloom_prefix_length = cf_rowprefix;
    }
    char prefix[32];
    snprintf(prefix, sizeof prefix, "%s.", families[f]);
    write_props(tp, &o, prefix);
  }
  fclose(tp);

  /* rows: ids 1..20000, key = (id % 10) "|" id */
  cellset all[2] = {{0}, {0}};
  for (int f = 0; f < 2; f++) {
    for (int id = 1; id <= 20000; id++) {
      char row[32];
      int rl = snprintf(row, sizeof row, "%d|%d", id % 10, id);
      int nq = f == 0 ? 3 : 1;
      for (int q = 0; q < nq; q++) {
        gcell *g = add(&all[f]);
        set_bytes(&g->row, &g->row_len, row, (size_t)rl);
        g->qual_len = (size_t)snprintf(g->qual, sizeof g->qual, f == 0 ? "c%d" : "m%d", q);
        g->ts = 1720695600000;
        g->type = HFG_TYPE_PUT;
        char v[64];
        int vl = snprintf(v, sizeof v, "v-%d-%d-%s", id, q, families[f]);
        set_bytes(&g->value, &g->value_len, v, (size_t)vl);
      }
    }
    family_g = families[f];
    qsort(all[f].c, all[f].n, sizeof *all[f].c, cmp_gcell);
    /* partition on the first byte (the bucket digit): region b holds bucket b */
    snprintf(path, sizeof path, "%s/out/%s", dir, families[f]);
    mkdir_p(path);
    size_t start = 0;
    for (int b = 0; b < 10; b++) {
      size_t end = start;
      while (end < all[f].n && all[f].c[end].row[0] == '0' + b) end++;
      hfg_writer_options o = HFG_WRITER_OPTIONS_INIT;
      o.codec = codecs[f];
      o.bloom = blooms[f];
      o.encoding = encs[f];
      if (f == 0 && cf_rowprefix) {
        o.bloom = HFG_BLOOM_ROWPREFIX;
        o.bloom_prefix_length = cf_rowprefix;
      }
      o.bulkload_timestamp = 1720695600000;
      char file[4200];
      snprintf(file, sizeof file, "%s/out/%s/%032x", dir, families[f], 0xabc000u + (unsigned)b);
      if (write_hfile(file, families[f], &o, all[f].c + start, end - start)) failures++;
      start = end;
    }
  }
  /* expected.tsv in scan order: by row, then family, qualifier */
  snprintf(path, sizeof path, "%s/expected.tsv", dir);
  FILE *e = fopen(path, "w");
  if (!e) die(path);
  size_t i0 = 0, i1 = 0;
  while (i0 < all[0].n || i1 < all[1].n) {
    int take0;
    if (i0 == all[0].n) take0 = 0;
    else if (i1 == all[1].n) take0 = 1;
    else {
      const gcell *a = &all[0].c[i0], *b = &all[1].c[i1];
      size_t n = a->row_len < b->row_len ? a->row_len : b->row_len;
      int r = memcmp(a->row, b->row, n);
      if (!r) r = a->row_len < b->row_len ? -1 : a->row_len > b->row_len;
      take0 = r <= 0; /* same row: "cf" < "meta" */
    }
    if (take0) write_tsv_line(e, &all[0].c[i0++], "cf");
    else write_tsv_line(e, &all[1].c[i1++], "meta");
  }
  fclose(e);
  snprintf(path, sizeof path, "%s/gets.txt", dir);
  FILE *g = fopen(path, "w");
  if (!g) die(path);
  const int ids[] = {1, 9, 10, 1420, 9999, 10000, 19999, 20000};
  for (size_t k = 0; k < sizeof ids / sizeof *ids; k++) fprintf(g, "%d|%d\n", ids[k] % 10, ids[k]);
  fclose(g);
  free_set(&all[0]);
  free_set(&all[1]);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: hfg_interop_gen OUTDIR\n");
    return 2;
  }
  mkdir_p(argv[1]);
  read_matrix(argv[1]);
  encoding_matrix(argv[1]);
  bulk_case(argv[1], "salt10_two_families", HFG_ENCODING_NONE, HFG_ENCODING_NONE, 0);
  /* families declared with each data block encoding (issue #14) */
  bulk_case(argv[1], "salt10_prefix_diff", HFG_ENCODING_PREFIX, HFG_ENCODING_DIFF, 0);
  bulk_case(argv[1], "salt10_fast_diff_row_index_v1", HFG_ENCODING_FAST_DIFF,
            HFG_ENCODING_ROW_INDEX_V1, 4); /* cf: a ROWPREFIX_FIXED_LENGTH bloom of "b|id"[0..4) */
  if (failures) {
    fprintf(stderr, "hfg_interop_gen: %d files failed\n", failures);
    return 1;
  }
  return 0;
}
