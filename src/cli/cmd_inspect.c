/*
 * hfilegen inspect FILE... [--blocks] [--cells [--limit N] [--tsv]] [--stats] [--json]
 *
 * Without section options: the report (trailer, file info, index, blooms).
 * With --blocks / --cells / --stats: just those sections. --cells --tsv is the
 * cells TSV contract of the interop harness and prints nothing else:
 *   row \t family \t qualifier \t timestamp \t type \t value \t tags \n
 * (bytes escaped as util/escape.h, signed decimal timestamp, type name or code).
 * --json prints the report (plus any selected sections) as JSON: one object,
 * or an array of objects for several files.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/cli_flags.h"
#include "cli/cli_util.h"
#include "hfilegen/reader.h"
#include "util/coding.h"
#include "util/escape.h"

typedef struct opts {
  int blocks, cells, tsv, stats, json;
  int has_limit;
  uint64_t limit;
} opts;

static void usage(FILE *f) {
  fprintf(f,
          "usage: hfilegen inspect FILE... [--blocks] [--cells [--limit N] [--tsv]] [--stats] "
          "[--json]\n\n"
          "  (default)   trailer, file info, block index and bloom summary\n"
          "  --blocks    every block from offset 0 to the trailer\n"
          "  --cells     cells in file order (--limit N: the first N)\n"
          "  --tsv       with --cells: row, family, qualifier, timestamp, type, value, tags\n"
          "              tab-separated, bytes escaped; nothing else is printed\n"
          "  --stats     size histograms, rows, families, compression ratio\n"
          "  --json      the report (and selected sections) as JSON\n"
          "exit: 0 ok, 1 a file could not be read, 2 usage\n");
}

static const char *checksum_name(uint8_t t) {
  return t == 0 ? "NULL" : t == 1 ? "CRC32" : t == 2 ? "CRC32C" : "?";
}

static const char *cmp_note(hfg_comparator_kind k) {
  switch (k) {
    case HFG_CMP_CELL: return "cell order";
    case HFG_CMP_META: return "hbase:meta order";
    case HFG_CMP_RAW: return "raw bytes";
    default: return "unknown class: read in cell order";
  }
}

/* ---- file info values ---- */

enum fi_kind { FI_BYTES, FI_LONG, FI_INT, FI_KEY, FI_BOOL, FI_TIMERANGE, FI_BLOOMKEY };

static enum fi_kind fi_kind_of(const uint8_t *k, size_t n) {
  static const char *const longs[] = {"hfile.CREATE_TIME_TS", "MAX_MEMSTORE_TS_KEY",
                                      "BULKLOAD_TIMESTAMP",   "EARLIEST_PUT_TS",
                                      "DELETE_FAMILY_COUNT",  "MAX_SEQ_ID_KEY",
                                      "hfile.LEN_OF_BIGGEST_CELL", "MOB_CELLS_COUNT"};
  static const char *const ints[] = {"hfile.AVG_KEY_LEN", "hfile.AVG_VALUE_LEN",
                                     "hfile.MAX_TAGS_LEN", "KEY_VALUE_VERSION",
                                     "BLOOM_FILTER_PARAM"};
  static const char *const keys[] = {"hfile.LASTKEY", "hfile.KEY_OF_BIGGEST_CELL"};
  static const char *const bools[] = {"MAJOR_COMPACTION_KEY", "EXCLUDE_FROM_MINOR_COMPACTION",
                                      "hfile.TAGS_COMPRESSED"};
#define IS(s) (n == strlen(s) && memcmp(k, s, n) == 0)
  for (size_t i = 0; i < sizeof longs / sizeof *longs; i++)
    if (IS(longs[i])) return FI_LONG;
  for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
    if (IS(ints[i])) return FI_INT;
  for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
    if (IS(keys[i])) return FI_KEY;
  for (size_t i = 0; i < sizeof bools / sizeof *bools; i++)
    if (IS(bools[i])) return FI_BOOL;
  if (IS("TIMERANGE")) return FI_TIMERANGE;
  if (IS("LAST_BLOOM_KEY")) return FI_BLOOMKEY;
#undef IS
  return FI_BYTES;
}

static void fi_value(FILE *f, const hfg_reader *r, const uint8_t *k, size_t kn, const uint8_t *v,
                     size_t n, int json) {
  enum fi_kind kind = fi_kind_of(k, kn);
  int64_t lo, hi;
  hfg_cell c;
  if (kind == FI_BLOOMKEY)
    kind = hfg_reader_meta(r)->bloom_type == HFG_BLOOM_ROWCOL ? FI_KEY : FI_BYTES;
  switch (kind) {
    case FI_LONG:
      if (n != 8) break;
      fprintf(f, "%" PRId64, (int64_t)hfg_get_be64(v));
      return;
    case FI_INT:
      if (n != 4) break;
      fprintf(f, "%" PRId32, (int32_t)hfg_get_be32(v));
      return;
    case FI_BOOL:
      if (n != 1) break;
      fputs(v[0] ? "true" : "false", f);
      return;
    case FI_KEY:
      if (hfg_parse_key(v, n, &c) != 0) break;
      if (json) cli_json_key(f, v, n);
      else cli_print_key(f, v, n);
      return;
    case FI_TIMERANGE:
      if (hfg_decode_timerange(v, n, &lo, &hi) != 0) break;
      if (json) fprintf(f, "{\"min\": %" PRId64 ", \"max\": %" PRId64 "}", lo, hi);
      else fprintf(f, "%" PRId64 "..%" PRId64, lo, hi);
      return;
    default:
      break;
  }
  if (json) {
    cli_json_bytes(f, v, n);
  } else {
    hfg_escape_fputs(f, v, n);
    if (kind != FI_BYTES) fprintf(f, "  (unexpected %zu-byte value)", n);
  }
}

/* ---- text report ---- */

static int text_report(FILE *f, hfg_reader *r, const char *path) {
  const hfg_trailer *t = hfg_reader_trailer(r);
  const hfg_file_meta *m = hfg_reader_meta(r);
  const char *codec = hfg_compression_name(t->compression);
  fprintf(f, "file: %s\n", path);
  fprintf(f, "trailer:\n");
  fprintf(f, "  version: %d.%d\n", t->major_version, t->minor_version);
  fprintf(f, "  file_size: %" PRIu64 "\n", t->file_size);
  fprintf(f, "  file_info_offset: %" PRIu64 "\n", t->file_info_offset);
  fprintf(f, "  load_on_open_data_offset: %" PRIu64 "\n", t->load_on_open_offset);
  fprintf(f, "  uncompressed_data_index_size: %" PRIu64 "\n", t->uncompressed_data_index_size);
  fprintf(f, "  total_uncompressed_bytes: %" PRIu64 "\n", t->total_uncompressed_bytes);
  fprintf(f, "  data_index_count: %" PRIu32 "\n", t->data_index_count);
  fprintf(f, "  meta_index_count: %" PRIu32 "\n", t->meta_index_count);
  fprintf(f, "  entry_count: %" PRIu64 "\n", t->entry_count);
  fprintf(f, "  num_data_index_levels: %" PRIu32 "\n", t->num_data_index_levels);
  fprintf(f, "  first_data_block_offset: %" PRId64 "\n", t->first_data_block_offset);
  fprintf(f, "  last_data_block_offset: %" PRId64 "\n", t->last_data_block_offset);
  fprintf(f, "  comparator: %s (%s)\n", t->comparator ? t->comparator : "(absent)",
          cmp_note(m->comparator));
  fprintf(f, "  compression: %s (ordinal %d)\n", codec ? codec : "?", t->compression);
  fprintf(f, "  encryption: %s\n", t->encryption_key_len ? "yes" : "none");
  fprintf(f, "  cell layout: tags %s, mvcc %s\n", m->includes_tags ? "yes" : "no",
          !m->includes_mvcc ? "no" : m->decode_mvcc ? "vlong" : "1 byte (MAX_MEMSTORE_TS_KEY 0)");

  fprintf(f, "file info (%zu entries):\n", hfg_reader_fileinfo_count(r));
  for (size_t i = 0; i < hfg_reader_fileinfo_count(r); i++) {
    const uint8_t *k, *v;
    size_t kn, vn;
    hfg_reader_fileinfo_entry(r, i, &k, &kn, &v, &vn);
    fputs("  ", f);
    hfg_escape_fputs(f, k, kn);
    fputs(" = ", f);
    fi_value(f, r, k, kn, v, vn, 0);
    fputc('\n', f);
  }

  hfg_index_summary s;
  fprintf(f, "data index:\n");
  fprintf(f, "  levels: %" PRIu32 "\n", t->num_data_index_levels);
  fprintf(f, "  root entries: %zu\n", hfg_reader_root_count(r));
  int rc = hfg_reader_load_index(r, &s);
  if (rc == 0) {
    fprintf(f, "  intermediate index blocks: %" PRIu64 "\n", s.intermediate_blocks);
    fprintf(f, "  leaf index blocks: %" PRIu64 "\n", s.leaf_blocks);
    fprintf(f, "  data blocks: %" PRIu64 "\n", s.data_blocks);
    fprintf(f, "  index bytes (uncompressed): %" PRIu64 "\n", s.index_uncompressed_bytes);
  }
  if (m->first_key) {
    fputs("  first key: ", f);
    cli_print_key(f, m->first_key, m->first_key_len);
    fputc('\n', f);
  }
  if (rc == 0 && s.mid_key) {
    fputs("  mid key: ", f);
    cli_print_key(f, s.mid_key, s.mid_key_len);
    fputc('\n', f);
  }
  if (rc == 0 && s.has_mid_key_meta)
    fprintf(f, "  mid-key metadata: leaf %" PRIu64 " (%" PRIu32 " bytes), entry %" PRIu32 "\n",
            s.mid_leaf_offset, s.mid_leaf_on_disk_size, s.mid_key_entry);
  if (m->last_key) {
    fputs("  last key: ", f);
    cli_print_key(f, m->last_key, m->last_key_len);
    fputc('\n', f);
  }
  if (rc) return rc;

  fprintf(f, "meta index (%zu entries):\n", hfg_reader_meta_index_count(r));
  for (size_t i = 0; i < hfg_reader_meta_index_count(r); i++) {
    hfg_index_entry e;
    hfg_reader_meta_index_entry(r, i, &e);
    fputs("  ", f);
    hfg_escape_fputs(f, e.key, e.key_len);
    fprintf(f, ": offset %" PRIu64 ", %" PRIu32 " bytes\n", e.offset, e.on_disk_size);
  }

  for (int which = 0; which < 2; which++) {
    hfg_bloom_summary b;
    rc = hfg_reader_bloom(r, which, &b);
    if (rc < 0) return rc;
    const char *label = which ? "delete-family bloom" : "bloom";
    if (rc == 0) {
      if (!which) fprintf(f, "%s: none\n", label);
      continue;
    }
    fprintf(f, "%s:\n", label);
    fprintf(f, "  type: %s\n", b.type == HFG_BLOOM_ROW      ? "ROW"
                               : b.type == HFG_BLOOM_ROWCOL ? "ROWCOL"
                               : b.type == HFG_BLOOM_ROWPREFIX
                                   ? "ROWPREFIX_FIXED_LENGTH"
                                   : "unknown (BLOOM_FILTER_TYPE)");
    fprintf(f, "  chunks: %" PRId32 "\n", b.num_chunks);
    fprintf(f, "  keys: %" PRId64 " (max %" PRId64 ")\n", b.total_key_count, b.total_max_keys);
    fprintf(f, "  hash count: %" PRId32 ", hash type: %" PRId32 "\n", b.hash_count, b.hash_type);
    fprintf(f, "  byte size: %" PRId64 "\n", b.total_byte_size);
    fprintf(f, "  version: %" PRId32 "\n", b.version);
    if (b.comparator && *b.comparator) fprintf(f, "  comparator: %s\n", b.comparator);
  }
  return 0;
}

/* ---- JSON report ---- */

static int json_report(FILE *f, hfg_reader *r, const char *path) {
  const hfg_trailer *t = hfg_reader_trailer(r);
  const hfg_file_meta *m = hfg_reader_meta(r);
  const char *codec = hfg_compression_name(t->compression);
  fputs("{\"file\": ", f);
  cli_json_str(f, path);
  fprintf(f,
          ", \"trailer\": {\"major_version\": %d, \"minor_version\": %d, \"file_size\": %" PRIu64
          ", \"file_info_offset\": %" PRIu64 ", \"load_on_open_data_offset\": %" PRIu64
          ", \"uncompressed_data_index_size\": %" PRIu64 ", \"total_uncompressed_bytes\": %" PRIu64
          ", \"data_index_count\": %" PRIu32 ", \"meta_index_count\": %" PRIu32
          ", \"entry_count\": %" PRIu64 ", \"num_data_index_levels\": %" PRIu32
          ", \"first_data_block_offset\": %" PRId64 ", \"last_data_block_offset\": %" PRId64
          ", \"comparator\": ",
          t->major_version, t->minor_version, t->file_size, t->file_info_offset,
          t->load_on_open_offset, t->uncompressed_data_index_size, t->total_uncompressed_bytes,
          t->data_index_count, t->meta_index_count, t->entry_count, t->num_data_index_levels,
          t->first_data_block_offset, t->last_data_block_offset);
  if (t->comparator) cli_json_str(f, t->comparator);
  else fputs("null", f);
  fprintf(f, ", \"compression\": \"%s\", \"compression_ordinal\": %d, \"encrypted\": %s}",
          codec ? codec : "?", t->compression, t->encryption_key_len ? "true" : "false");
  fprintf(f, ", \"cell_layout\": {\"tags\": %s, \"mvcc\": %s, \"decode_mvcc\": %s}",
          m->includes_tags ? "true" : "false", m->includes_mvcc ? "true" : "false",
          m->decode_mvcc ? "true" : "false");
  fputs(", \"file_info\": {", f);
  for (size_t i = 0; i < hfg_reader_fileinfo_count(r); i++) {
    const uint8_t *k, *v;
    size_t kn, vn;
    hfg_reader_fileinfo_entry(r, i, &k, &kn, &v, &vn);
    if (i) fputs(", ", f);
    cli_json_bytes(f, k, kn);
    fputs(": ", f);
    fi_value(f, r, k, kn, v, vn, 1);
  }
  fputc('}', f);
  hfg_index_summary s;
  int rc = hfg_reader_load_index(r, &s);
  if (rc) return rc;
  fprintf(f,
          ", \"index\": {\"levels\": %" PRIu32 ", \"root_entries\": %" PRIu64
          ", \"intermediate_blocks\": %" PRIu64 ", \"leaf_blocks\": %" PRIu64
          ", \"data_blocks\": %" PRIu64 ", \"index_bytes\": %" PRIu64 ", \"first_key\": ",
          s.levels, s.root_entries, s.intermediate_blocks, s.leaf_blocks, s.data_blocks,
          s.index_uncompressed_bytes);
  if (m->first_key) cli_json_key(f, m->first_key, m->first_key_len);
  else fputs("null", f);
  fputs(", \"mid_key\": ", f);
  if (s.mid_key) cli_json_key(f, s.mid_key, s.mid_key_len);
  else fputs("null", f);
  fputs(", \"last_key\": ", f);
  if (m->last_key) cli_json_key(f, m->last_key, m->last_key_len);
  else fputs("null", f);
  fputs("}, \"meta_index\": [", f);
  for (size_t i = 0; i < hfg_reader_meta_index_count(r); i++) {
    hfg_index_entry e;
    hfg_reader_meta_index_entry(r, i, &e);
    fputs(i ? ", {\"name\": " : "{\"name\": ", f);
    cli_json_bytes(f, e.key, e.key_len);
    fprintf(f, ", \"offset\": %" PRIu64 ", \"size\": %" PRIu32 "}", e.offset, e.on_disk_size);
  }
  fputc(']', f);
  for (int which = 0; which < 2; which++) {
    hfg_bloom_summary b;
    rc = hfg_reader_bloom(r, which, &b);
    if (rc < 0) return rc;
    fputs(which ? ", \"delete_family_bloom\": " : ", \"bloom\": ", f);
    if (rc == 0) {
      fputs("null", f);
      continue;
    }
    fprintf(f,
            "{\"type\": \"%s\", \"chunks\": %" PRId32 ", \"keys\": %" PRId64
            ", \"max_keys\": %" PRId64 ", \"hash_count\": %" PRId32 ", \"hash_type\": %" PRId32
            ", \"byte_size\": %" PRId64 ", \"version\": %" PRId32 "}",
            b.type == HFG_BLOOM_ROW         ? "ROW"
            : b.type == HFG_BLOOM_ROWCOL    ? "ROWCOL"
            : b.type == HFG_BLOOM_ROWPREFIX ? "ROWPREFIX_FIXED_LENGTH"
                                            : "unknown",
            b.num_chunks, b.total_key_count, b.total_max_keys, b.hash_count, b.hash_type,
            b.total_byte_size, b.version);
  }
  return 0;
}

/* ---- blocks ---- */

static int blocks(FILE *f, hfg_reader *r, int json) {
  const hfg_trailer *t = hfg_reader_trailer(r);
  uint64_t end = t->file_size - 4096, off = 0;
  if (json) fputs(", \"blocks\": [", f);
  else
    fprintf(f, "%-12s %-9s %-12s %10s %10s %12s %12s %-7s %6s\n", "offset", "magic", "section",
            "on-disk", "data+hdr", "uncompressed", "prev-offset", "cksum", "bpc");
  int first = 1;
  while (off < end) {
    hfg_block_info b;
    int rc = hfg_reader_block_header(r, off, &b);
    if (rc) return rc;
    const char *sect = off < t->load_on_open_offset ? "scanned" : "load-on-open";
    if (json) {
      fprintf(f,
              "%s{\"offset\": %" PRIu64 ", \"type\": \"%s\", \"magic\": ", first ? "" : ", ", off,
              hfg_block_type_name(b.type));
      cli_json_str(f, hfg_block_type_magic(b.type));
      fprintf(f,
              ", \"on_disk_size_with_header\": %" PRIu64 ", \"on_disk_size_without_header\": %" PRIu32
              ", \"on_disk_data_size_with_header\": %" PRIu32 ", \"uncompressed_size\": %" PRIu32
              ", \"prev_block_offset\": %" PRId64 ", \"checksum_type\": \"%s\""
              ", \"bytes_per_checksum\": %" PRIu32 "}",
              b.on_disk_size_with_header, b.on_disk_size_without_header,
              b.on_disk_data_size_with_header, b.uncompressed_size, b.prev_block_offset,
              checksum_name(b.checksum_type), b.bytes_per_checksum);
    } else {
      fprintf(f,
              "%-12" PRIu64 " %-9s %-12s %10" PRIu64 " %10" PRIu32 " %12" PRIu32 " %12" PRId64
              " %-7s %6" PRIu32 "\n",
              off, hfg_block_type_magic(b.type), sect, b.on_disk_size_with_header,
              b.on_disk_data_size_with_header, b.uncompressed_size, b.prev_block_offset,
              checksum_name(b.checksum_type), b.bytes_per_checksum);
    }
    first = 0;
    off += b.on_disk_size_with_header;
  }
  if (json) fputc(']', f);
  else fprintf(f, "%-12" PRIu64 " %-9s %-12s %10u\n", end, "TRABLK\"$", "trailer", 4096u);
  return 0;
}

/* ---- cells ---- */

static int cells(FILE *f, hfg_reader *r, const opts *o, const char **err) {
  hfg_scanner *s;
  int rc = hfg_scanner_new(r, &s);
  if (rc) {
    *err = hfg_reader_errmsg(r);
    return rc;
  }
  hfg_read_cell c;
  uint64_t n = 0;
  char tb[8];
  if (o->json) fputs(", \"cells\": [", f);
  while ((!o->has_limit || n < o->limit) && (rc = hfg_scanner_next(s, &c)) == 1) {
    const hfg_cell *k = &c.cell;
    if (o->tsv) {
      hfg_escape_fputs(f, k->row, k->row_len);
      fputc('\t', f);
      hfg_escape_fputs(f, k->family, k->family_len);
      fputc('\t', f);
      hfg_escape_fputs(f, k->qualifier, k->qualifier_len);
      fprintf(f, "\t%" PRId64 "\t%s\t", k->timestamp, cli_type_name(k->type, tb));
      hfg_escape_fputs(f, k->value, k->value_len);
      fputc('\t', f);
      hfg_escape_fputs(f, k->tags, k->tags_len);
      fputc('\n', f);
    } else if (o->json) {
      fputs(n ? ", {\"key\": " : "{\"key\": ", f);
      cli_json_key(f, c.key, c.key_len);
      fputs(", \"value\": ", f);
      cli_json_bytes(f, k->value, k->value_len);
      fputs(", \"tags\": ", f);
      cli_json_bytes(f, k->tags, k->tags_len);
      fprintf(f, ", \"mvcc\": %" PRId64 ", \"block\": %" PRIu64 "}", c.mvcc, c.block_offset);
    } else {
      cli_print_key(f, c.key, c.key_len);
      fprintf(f, " vlen=%zu value=", k->value_len);
      hfg_escape_fputs(f, k->value, k->value_len);
      if (k->tags_len) {
        fputs(" tags=", f);
        hfg_escape_fputs(f, k->tags, k->tags_len);
      }
      if (c.mvcc) fprintf(f, " mvcc=%" PRId64, c.mvcc);
      fputc('\n', f);
    }
    n++;
  }
  if (o->json) fputc(']', f);
  if (rc < 0) *err = hfg_scanner_errmsg(s);
  hfg_scanner_free(s);
  return rc < 0 ? rc : 0;
}

/* ---- stats ---- */

static void hist_text(FILE *f, const char *name, const uint64_t *h) {
  fprintf(f, "  %s histogram:\n", name);
  for (int i = 0; i < HFG_STATS_BUCKETS; i++) {
    if (!h[i]) continue;
    if (i == 0) fprintf(f, "    %-24s %" PRIu64 "\n", "0", h[i]);
    else {
      char lab[64];
      snprintf(lab, sizeof lab, "[%" PRIu64 ", %" PRIu64 ")", (uint64_t)1 << (i - 1),
               (uint64_t)1 << i);
      fprintf(f, "    %-24s %" PRIu64 "\n", lab, h[i]);
    }
  }
}

static void hist_json(FILE *f, const char *name, const uint64_t *h) {
  fprintf(f, ", \"%s\": [", name);
  int first = 1;
  for (int i = 0; i < HFG_STATS_BUCKETS; i++) {
    if (!h[i]) continue;
    fprintf(f, "%s{\"min\": %" PRIu64 ", \"max_excl\": %" PRIu64 ", \"count\": %" PRIu64 "}",
            first ? "" : ", ", i ? (uint64_t)1 << (i - 1) : 0, i ? (uint64_t)1 << i : 1, h[i]);
    first = 0;
  }
  fputc(']', f);
}

static int stats(FILE *f, hfg_reader *r, int json) {
  static hfg_stats st; /* large: keep it off the stack */
  int rc = hfg_reader_stats(r, &st);
  if (rc) return rc;
  double ratio = st.data_on_disk_payload_bytes
                     ? (double)st.data_uncompressed_bytes / (double)st.data_on_disk_payload_bytes
                     : 0.0;
  char tb[8];
  if (json) {
    fprintf(f,
            ", \"stats\": {\"cells\": %" PRIu64 ", \"rows\": %" PRIu64 ", \"key_bytes\": %" PRIu64
            ", \"value_bytes\": %" PRIu64 ", \"tags_bytes\": %" PRIu64
            ", \"row_key_min\": %" PRIu64 ", \"row_key_max\": %" PRIu64 ", \"data_blocks\": %" PRIu64
            ", \"data_uncompressed_bytes\": %" PRIu64 ", \"data_on_disk_payload_bytes\": %" PRIu64
            ", \"data_on_disk_bytes\": %" PRIu64 ", \"compression_ratio\": %.4f",
            st.cells, st.rows, st.key_bytes, st.value_bytes, st.tags_bytes, st.row_key_min,
            st.row_key_max, st.data_blocks, st.data_uncompressed_bytes,
            st.data_on_disk_payload_bytes, st.data_on_disk_bytes, ratio);
    if (st.cells) fprintf(f, ", \"min_ts\": %" PRId64 ", \"max_ts\": %" PRId64, st.min_ts, st.max_ts);
    fputs(", \"families\": [", f);
    for (size_t i = 0; i < st.family_count; i++) {
      if (i) fputs(", ", f);
      cli_json_bytes(f, st.family[i], st.family_len[i]);
    }
    fprintf(f, "], \"families_truncated\": %s, \"types\": {", st.families_truncated ? "true" : "false");
    int first = 1;
    for (int t = 0; t < 256; t++) {
      if (!st.type_count[t]) continue;
      fprintf(f, "%s\"%s\": %" PRIu64, first ? "" : ", ", cli_type_name((uint8_t)t, tb),
              st.type_count[t]);
      first = 0;
    }
    fputc('}', f);
    hist_json(f, "key_size_histogram", st.key_hist);
    hist_json(f, "value_size_histogram", st.value_hist);
    hist_json(f, "row_size_histogram", st.row_hist);
    fputc('}', f);
    return 0;
  }
  char h1[32], h2[32], h3[32];
  fprintf(f, "stats:\n");
  fprintf(f, "  cells: %" PRIu64 "\n", st.cells);
  fprintf(f, "  rows: %" PRIu64 "\n", st.rows);
  fprintf(f, "  families: %zu%s", st.family_count, st.families_truncated ? "+" : "");
  for (size_t i = 0; i < st.family_count; i++) {
    fputs(i ? ", \"" : " (\"", f);
    hfg_escape_fputs(f, st.family[i], st.family_len[i]);
    fputs(i + 1 == st.family_count ? "\")" : "\"", f);
  }
  fputc('\n', f);
  if (st.cells) {
    fprintf(f, "  key bytes: %" PRIu64 " (avg %.1f)\n", st.key_bytes,
            (double)st.key_bytes / (double)st.cells);
    fprintf(f, "  value bytes: %" PRIu64 " (avg %.1f)\n", st.value_bytes,
            (double)st.value_bytes / (double)st.cells);
    fprintf(f, "  tags bytes: %" PRIu64 "\n", st.tags_bytes);
    fprintf(f, "  row key length: %" PRIu64 "..%" PRIu64 "\n", st.row_key_min, st.row_key_max);
    fprintf(f, "  timestamps: %" PRId64 "..%" PRId64 "\n", st.min_ts, st.max_ts);
    fputs("  types:", f);
    for (int t = 0; t < 256; t++)
      if (st.type_count[t])
        fprintf(f, " %s=%" PRIu64, cli_type_name((uint8_t)t, tb), st.type_count[t]);
    fputc('\n', f);
  }
  fprintf(f, "  data blocks: %" PRIu64 "\n", st.data_blocks);
  fprintf(f, "  data bytes: %s uncompressed, %s compressed payload, %s on disk with headers "
             "and checksums\n",
          cli_human(st.data_uncompressed_bytes, h1), cli_human(st.data_on_disk_payload_bytes, h2),
          cli_human(st.data_on_disk_bytes, h3));
  fprintf(f, "  compression ratio: %.2fx (uncompressed / compressed payload)\n", ratio);
  hist_text(f, "key size", st.key_hist);
  hist_text(f, "value size", st.value_hist);
  hist_text(f, "row size (bytes of all cells of a row)", st.row_hist);
  return 0;
}

/* ---- driver ---- */

static int inspect_one(const char *path, const opts *o) {
  hfg_reader *r;
  int rc = hfg_reader_open(path, &r);
  if (rc) {
    fprintf(stderr, "hfilegen inspect: %s: %s\n", path, hfg_reader_errmsg(r));
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) /* build's output, say */
      fprintf(stderr, "hfilegen inspect: it takes HFiles (%s/<family>/<file>); 'hfilegen verify "
                      "%s' checks a whole output directory\n", path, path);
    if (o->json) {
      fputs("{\"file\": ", stdout);
      cli_json_str(stdout, path);
      fputs(", \"error\": ", stdout);
      cli_json_str(stdout, hfg_reader_errmsg(r));
      fputs("}", stdout);
    }
    hfg_reader_close(r);
    return 1;
  }
  FILE *f = stdout;
  const char *err = NULL;
  int sections = o->blocks || o->cells || o->stats;
  if (o->json) {
    rc = json_report(f, r, path);
    if (!rc && o->blocks) rc = blocks(f, r, 1);
    if (!rc && o->stats) rc = stats(f, r, 1);
    if (!rc && o->cells) rc = cells(f, r, o, &err);
    fputs("}", f);
  } else if (o->tsv) {
    rc = cells(f, r, o, &err);
  } else {
    if (!sections) rc = text_report(f, r, path);
    if (!rc && o->blocks) rc = blocks(f, r, 0);
    if (!rc && o->stats) rc = stats(f, r, 0);
    if (!rc && o->cells) rc = cells(f, r, o, &err);
  }
  if (rc) {
    fflush(f);
    fprintf(stderr, "hfilegen inspect: %s: %s\n", path, err ? err : hfg_reader_errmsg(r));
  }
  hfg_reader_close(r);
  return rc ? 1 : 0;
}

int cmd_inspect(int argc, char **argv) {
  opts o;
  memset(&o, 0, sizeof o);
  int nfiles = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--blocks")) o.blocks = 1;
    else if (!strcmp(a, "--cells")) o.cells = 1;
    else if (!strcmp(a, "--tsv")) o.tsv = 1;
    else if (!strcmp(a, "--stats")) o.stats = 1;
    else if (!strcmp(a, "--json")) o.json = 1;
    else if (!strcmp(a, "--limit") || !strncmp(a, "--limit=", 8)) {
      const char *v = a[7] == '=' ? a + 8 : (i + 1 < argc ? argv[++i] : NULL);
      if (!v || cli_parse_u64(v, &o.limit)) {
        fprintf(stderr, "hfilegen inspect: --limit needs a non-negative integer\n");
        return 2;
      }
      o.has_limit = 1;
    } else if (a[0] == '-' && a[1]) {
      cli_flag_unknown("inspect", a);
      usage(stderr);
      return 2;
    } else {
      nfiles++;
    }
  }
  if (!nfiles) {
    usage(stderr);
    return 2;
  }
  if ((o.tsv || o.has_limit) && !o.cells) {
    fprintf(stderr, "hfilegen inspect: --tsv and --limit go with --cells\n");
    return 2;
  }
  if (o.tsv && (o.json || o.blocks || o.stats)) {
    fprintf(stderr, "hfilegen inspect: --cells --tsv prints cells only; drop --json/--blocks/--stats\n");
    return 2;
  }
  int failed = 0, k = 0;
  if (o.json && nfiles > 1) fputs("[", stdout);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--limit")) {
      i++;
      continue;
    }
    if (a[0] == '-' && a[1]) continue;
    if (o.json && nfiles > 1 && k) fputs(", ", stdout);
    if (!o.json && !o.tsv && nfiles > 1) printf("%s== %s ==\n", k ? "\n" : "", a);
    failed |= inspect_one(a, &o);
    k++;
  }
  if (o.json) fputs(nfiles > 1 ? "]\n" : "\n", stdout);
  if (fflush(stdout) != 0) {
    fprintf(stderr, "hfilegen inspect: writing output failed\n");
    return 1;
  }
  return failed ? 1 : 0;
}
