/*
 * hfg_rekey_run (include/hfilegen/rekey.h): the build job's stages over the
 * cells of a snapshot (or of family folders of HFiles) instead of records.
 *
 *   begin → the old table's rows (rekey_rows.h: the snapshot, the old-key
 *   pattern and the new rowkey) → families and their HFile options from the
 *   snapshot's schema, under --table and --family-option → open_output →
 *   ingest: each old row (per old region, one store scan per family, rows
 *   merged by row), re-keyed, handed to the sorter as typed cells
 *   (cell_payload.h) → sort_emit_publish → end.
 *
 * Ingest runs on one thread, regions in start-key order, so the sorter sees
 * the same records in the same order at every --threads (emit, which runs
 * regions in parallel, is byte-identical at every thread count already).
 */
#define _GNU_SOURCE
#include "hfilegen/rekey.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>

#include "build/build_internal.h"
#include "build/cell_payload.h"
#include "format/codec.h"
#include "build/rekey_internal.h"
#include "build/rekey_rows.h"
#include "util/alloc.h"
#include "util/escape.h"

void hfg_rekey_options_init(hfg_rekey_options *o) {
  memset(o, 0, sizeof *o);
  o->version = HFG_REKEY_OPTIONS_VERSION;
  o->as_of = -1;
  hfg_build_options_init(&o->build);
}

void hfg_rekey_summary_free(hfg_rekey_summary *s) { hfg_build_summary_free(&s->build); }

/* The schema's HFile settings of family f, as HFileOutputFormat2 takes a
 * table's (build --table does the same from a live table), but for those a
 * later layer chooses (skip, HFG_REKEY_GIVEN_*). */
static int schema_family(const hfg_snap_family *sf, unsigned skip, hfg_build_family *bf,
                         char *why, size_t wl) {
  memset(bf, 0, sizeof *bf);
  bf->name = sf->name;
  if (sf->compression && !(skip & HFG_REKEY_GIVEN_CODEC)) {
    char lower[32];
    size_t k = 0;
    for (; sf->compression[k] && k + 1 < sizeof lower; k++)
      lower[k] = (char)(sf->compression[k] | 0x20);
    lower[k] = 0;
    if (!strcmp(lower, "zstd")) {
      const char *cls = hfg_snap_family_attr(sf, "hbase.io.compress.zstd.codec");
      snprintf(lower, sizeof lower, "%s",
               cls && strstr(cls, "org.apache.hadoop.hbase.io.compress.zstd") ? "zstd-hbase"
                                                                               : "zstd-hadoop");
    }
    if (hfg_codec_parse(lower, &bf->codec)) {
      snprintf(why, wl, "family %s: COMPRESSION %s is not a codec hfilegen writes (give "
               "--family-option %s:codec=...)", sf->name, sf->compression, sf->name);
      return HFG_EUNSUPPORTED;
    }
    bf->has_codec = 1;
  }
  if (sf->bloomfilter && !(skip & HFG_REKEY_GIVEN_BLOOM)) {
    if (!strcasecmp(sf->bloomfilter, "ROWPREFIX_FIXED_LENGTH")) {
      bf->bloom = HFG_BLOOM_ROWPREFIX;
      if (sf->bloom_prefix_length <= 0) {
        snprintf(why, wl, "family %s: BLOOMFILTER ROWPREFIX_FIXED_LENGTH without "
                 "RowPrefixBloomFilter.prefix_length", sf->name);
        return HFG_ECORRUPT;
      }
      bf->bloom_prefix_length = (uint32_t)sf->bloom_prefix_length;
    } else if (hfg_bloom_type_parse(sf->bloomfilter, &bf->bloom)) {
      snprintf(why, wl, "family %s: BLOOMFILTER %s is not a bloom type", sf->name,
               sf->bloomfilter);
      return HFG_ECORRUPT;
    }
    bf->has_bloom = 1;
  }
  if (sf->data_block_encoding && !(skip & HFG_REKEY_GIVEN_ENCODING)) {
    if (hfg_encoding_parse(sf->data_block_encoding, &bf->encoding)) {
      snprintf(why, wl, "family %s: DATA_BLOCK_ENCODING %s is not an encoding hfilegen writes",
               sf->name, sf->data_block_encoding);
      return HFG_EUNSUPPORTED;
    }
    bf->has_encoding = 1;
  }
  if (sf->blocksize > 0 && !(skip & HFG_REKEY_GIVEN_BLOCK_SIZE))
    bf->block_size = (uint32_t)sf->blocksize;
  return 0;
}

/* Which of family fam's settings a later layer chooses (HFG_REKEY_GIVEN_*): a flag
 * (ro->hfile_given), the new table's family (--table), a --family-option. The schema
 * leaves those unset, so that a schema value hfilegen cannot write (COMPRESSION LZO, say)
 * is no error when something else chooses it, as the error messages tell the user to do. */
static unsigned chosen_elsewhere(const hfg_rekey_options *ro, const char *fam) {
  const hfg_build_options *o = &ro->build;
  unsigned m = ro->hfile_given;
  for (size_t k = 0; k < o->ntable_families; k++) {
    const hfg_build_family *t = &o->table_families[k];
    if (!t->name || strcmp(t->name, fam)) continue;
    if (t->has_codec) m |= HFG_REKEY_GIVEN_CODEC;
    if (t->has_bloom) m |= HFG_REKEY_GIVEN_BLOOM;
    if (t->block_size) m |= HFG_REKEY_GIVEN_BLOCK_SIZE;
    if (t->has_encoding) m |= HFG_REKEY_GIVEN_ENCODING;
  }
  size_t fl = strlen(fam);
  for (size_t i = 0; i < o->nfamily_options; i++) {
    const char *spec = o->family_options[i];
    if (strncmp(spec, fam, fl) || spec[fl] != ':') continue;
    const char *key = spec + fl + 1, *eq = strchr(key, '=');
    size_t kl = eq ? (size_t)(eq - key) : 0;
#define KEY_IS(lit) (kl == sizeof lit - 1 && !strncmp(key, lit, kl))
    if (KEY_IS("codec")) m |= HFG_REKEY_GIVEN_CODEC;
    else if (KEY_IS("bloom")) m |= HFG_REKEY_GIVEN_BLOOM;
    else if (KEY_IS("block-size") || KEY_IS("block_size")) m |= HFG_REKEY_GIVEN_BLOCK_SIZE;
    else if (KEY_IS("encoding") || KEY_IS("data_block_encoding")) m |= HFG_REKEY_GIVEN_ENCODING;
#undef KEY_IS
  }
  return m;
}

/* With the new table's families (--table), each family of the old table must be one of
 * them: completebulkload refuses a family folder the table lacks ("Unmatched family
 * names"), so the job fails before reading a cell rather than after writing them all. */
static int check_table_family(job *j, const hfg_snap_family *sf) {
  const hfg_build_options *o = j->o;
  if (!o->ntable_families) return 0;
  for (size_t k = 0; k < o->ntable_families; k++)
    if (o->table_families[k].name && !strcmp(o->table_families[k].name, sf->name)) return 0;
  char have[512];
  size_t at = 0;
  have[0] = 0;
  for (size_t k = 0; k < o->ntable_families && at + 1 < sizeof have; k++)
    at += (size_t)snprintf(have + at, sizeof have - at, "%s%s", k ? ", " : "",
                           o->table_families[k].name ? o->table_families[k].name : "?");
  if (at >= sizeof have) at = sizeof have - 1;
  return fail(j, HFG_EINVAL,
              "family '%s' of the old table is not a family of the new table (its families: "
              "%s): completebulkload would refuse the output (unmatched family names); add "
              "the family to the new table",
              sf->name, have);
}

/* manifest.json's "rekey": where the cells came from and what became of them. */
static void manifest_rekey(FILE *f, void *ctx) {
  const rekey *k = ctx;
  const hfg_rekey_summary *s = k->rs;
  fputs("\n  \"rekey\": {\"from\": ", f);
  hfg_build_json_text(f, k->ro->from_dir);
  fputs(", \"snapshot\": ", f);
  if (k->ro->snapshot) hfg_build_json_text(f, k->ro->snapshot);
  else fputs("null", f);
  fputs(", \"table\": ", f);
  if (s->snapshot_table[0]) hfg_build_json_text(f, s->snapshot_table);
  else fputs("null", f);
  fputs(", \"old_key\": ", f);
  hfg_build_json_text(f, k->ro->old_key);
  fprintf(f,
          ", \"view\": \"%s\", \"as_of\": %lld, \"store_files\": %llu, \"cells_read\": %llu, "
          "\"markers_read\": %llu, \"dropped\": {\"markers_applied\": %llu, \"deleted\": %llu, "
          "\"expired\": %llu, \"beyond_versions\": %llu, \"duplicate_keys\": %llu, "
          "\"outside_region\": %llu}},",
          k->ro->raw ? "raw" : "visible", (long long)s->as_of,
          (unsigned long long)s->store_files, (unsigned long long)s->cells_read,
          (unsigned long long)s->markers_read, (unsigned long long)s->dropped_markers,
          (unsigned long long)s->dropped_deleted, (unsigned long long)s->dropped_expired,
          (unsigned long long)s->dropped_versions, (unsigned long long)s->dropped_duplicate,
          (unsigned long long)s->dropped_outside);
}

int hfg_rekey_setup(rekey *k) {
  job *j = k->j;
  const hfg_rekey_options *ro = k->ro;
  hfg_err e = {0};
  int rc = hfg_rekey_rows_open(ro, k->rs->as_of, &k->rows, &e);
  if (rc) return fail(j, rc, "%s", e.msg);
  k->snap = hfg_rekey_rows_snapshot(k->rows);
  const hfg_snap_info *si = hfg_snapshot_info(k->snap);
  if (si->table) snprintf(k->rs->snapshot_table, sizeof k->rs->snapshot_table, "%s", si->table);
  snprintf(k->rs->warning, sizeof k->rs->warning, "%s", hfg_rekey_rows_warning(k->rows));
  /* borrowed from the rows: taken back before hfg_build_end frees the job */
  j->scheme = (hfg_scheme *)hfg_rekey_rows_scheme(k->rows);
  char msg[1024];
  size_t nf = hfg_snapshot_nfamilies(k->snap);
  hfg_build_family *base = hfg_calloc(nf, sizeof *base);
  if (!base) return fail(j, HFG_ENOMEM, "out of memory");
  for (size_t f = 0; f < nf && !rc; f++) {
    const hfg_snap_family *sf = hfg_snapshot_family(k->snap, f);
    if (hfg_colmap_add_family(&j->map, sf->name, sf->name_len, &e) != (long)f)
      rc = fail(j, e.code ? e.code : HFG_EINVAL, "family %s: %s", sf->name,
                e.code ? e.msg : "listed twice");
    else if ((rc = schema_family(sf, chosen_elsewhere(ro, sf->name), &base[f], msg,
                                 sizeof msg)))
      fail(j, rc, "%s", msg);
    else if ((rc = check_table_family(j, sf)))
      break;
  }
  if (!rc) {
    j->families = j->map.families;
    j->family_len = j->map.family_len;
    j->nfamilies = j->map.nfamilies;
    rc = hfg_build_setup_families(j, ro->snapshot ? base : NULL, ro->snapshot ? nf : 0);
  }
  hfg_free(base);
  j->cell_payload = 1;
  j->manifest_extra = manifest_rekey;
  j->manifest_ctx = k;
  return rc;
}

int hfg_rekey_reject_line(hfg_buf *out, const char *encoded, uint64_t ordinal,
                          const char *reason, const uint8_t *row, size_t len) {
  char head[400];
  int hl = snprintf(head, sizeof head, "region %s\t%llu\t", encoded[0] ? encoded : "-",
                    (unsigned long long)ordinal);
  if (hl < 0 || (size_t)hl >= sizeof head) hl = (int)sizeof head - 1;
  if (hfg_buf_append(out, head, (size_t)hl)) return HFG_ENOMEM;
  for (const char *p = reason; *p; p++) {
    char c = *p == '\t' || *p == '\n' ? ' ' : *p;
    if (hfg_buf_append(out, &c, 1)) return HFG_ENOMEM;
  }
  if (hfg_buf_append(out, "\t", 1) || hfg_escape(out, row, len) || hfg_buf_append(out, "\n", 1))
    return HFG_ENOMEM;
  return 0;
}

int hfg_rekey_row_payload(hfg_buf *pl, const hfg_rekey_row *row, size_t nfamilies) {
  hfg_buf_reset(pl);
  if (hfg_cell_payload_begin(pl, 0, row->ordinal, (uint16_t)row->region)) return HFG_ENOMEM;
  for (size_t f = 0; f < nfamilies; f++)
    for (size_t c = 0; c < row->ncells[f]; c++) {
      int rc = hfg_cell_payload_add(pl, (uint16_t)f, &row->cells[f][c]);
      if (rc) return rc;
    }
  return 0;
}

void hfg_rekey_take_counts(hfg_rekey_summary *rs, const hfg_store_scan_counts *c,
                           uint64_t store_files) {
  rs->store_files = store_files;
  rs->cells_read = c->cells_read;
  rs->markers_read = c->markers_read;
  rs->dropped_deleted = c->dropped_deleted;
  rs->dropped_markers = c->dropped_marker;
  rs->dropped_expired = c->dropped_expired;
  rs->dropped_versions = c->dropped_versions;
  rs->dropped_duplicate = c->dropped_duplicate;
  rs->dropped_outside = c->dropped_outside;
}

/* A rejected old row: the rejects file names the region and the row's bytes. */
static int reject_row(rekey *k, size_t region, uint64_t ordinal, const uint8_t *row, size_t len,
                      const char *reason) {
  job *j = k->j;
  const hfg_snap_region *r = hfg_snapshot_region(k->snap, region);
  j->sum->records_rejected++;
  if (j->rejects) {
    hfg_buf_reset(&k->payload);
    if (hfg_rekey_reject_line(&k->payload, r->encoded, ordinal, reason, row, len))
      return fail(j, HFG_ENOMEM, "out of memory");
    fwrite(k->payload.p, 1, k->payload.len, j->rejects);
  }
  if (j->sum->records_rejected > j->o->max_rejects) {
    hfg_buf kb = HFG_BUF_INIT;
    hfg_escape(&kb, row, len > 200 ? 200 : len);
    fail(j, HFG_EREJECT, "old row '%.*s': %s (%llu rejected > --max-rejects %llu; see %s)",
         (int)kb.len, kb.p ? (char *)kb.p : "", reason,
         (unsigned long long)j->sum->records_rejected, (unsigned long long)j->o->max_rejects,
         j->sum->rejects_path);
    hfg_buf_free(&kb);
    return HFG_EREJECT;
  }
  return 0;
}

/* One old row (the cells of every family that holds it): re-keyed into the sorter. */
static int add_row(rekey *k, const hfg_rekey_row *row) {
  job *j = k->j;
  j->sum->records_read++;
  if (row->empty) { /* every cell deleted or expired: no new row (read = written +
                       rejected + without cells) */
    j->sum->records_without_cells++;
    return 0;
  }
  if (row->rejected)
    return reject_row(k, row->region, row->ordinal, row->old_key, row->old_len, row->why);
  if (row->key_len > LONG_KEY) j->sum->long_keys++;
  int rc = hfg_rekey_row_payload(&k->payload, row, j->nfamilies);
  if (rc)
    return fail(j, rc,
                rc == HFG_ENOMEM ? "out of memory" : "old row %llu: a cell HBase cannot hold",
                (unsigned long long)row->ordinal);
  size_t nr = hfg_splits_region(&j->splits, row->key, row->key_len);
  hfg_err e = {0};
  if (hfg_sorter_add(j->sorter, nr, row->key, row->key_len, j->sum->records_read, k->payload.p,
                     k->payload.len, &e))
    return fail(j, e.code, "%s", e.msg);
  return 0;
}

/* The rows in the rows' order (regions by start key, rows by key): the sorter sees
 * the same records in the same order at every --threads. */
static int ingest(rekey *k) {
  job *j = k->j;
  for (size_t ri = 0; ri < hfg_snapshot_nregions(k->snap); ri++) {
    const hfg_snap_region *reg = hfg_snapshot_region(k->snap, ri);
    if (j->ninput_names < sizeof j->input_names / sizeof *j->input_names)
      j->input_names[j->ninput_names++] = reg->encoded[0] ? reg->encoded : k->ro->from_dir;
  }
  int rc = 0;
  hfg_rekey_row row;
  hfg_err e = {0};
  while (!rc && !atomic_load(&j->failed)) {
    if (canceled(j)) {
      rc = fail(j, HFG_ECANCELED, "canceled during ingest");
      break;
    }
    int n = hfg_rekey_rows_next(k->rows, &row, &e);
    if (n < 0) rc = fail(j, n, "%s", e.msg);
    if (n <= 0) break;
    rc = add_row(k, &row);
  }
  hfg_store_scan_counts c;
  uint64_t files = 0;
  hfg_rekey_rows_counts(k->rows, &c, &files);
  hfg_rekey_take_counts(k->rs, &c, files);
  return rc;
}

int hfg_rekey_run(const hfg_rekey_options *ro, hfg_rekey_summary *rs) {
  memset(rs, 0, sizeof *rs);
  const hfg_build_options *o = &ro->build;
  if (ro->version != HFG_REKEY_OPTIONS_VERSION || o->version != HFG_BUILD_OPTIONS_VERSION ||
      !ro->from_dir || !ro->old_key || !o->rowkey || !o->out_dir) {
    snprintf(rs->build.error, sizeof rs->build.error,
             "rekey needs --from, --old-key, --rowkey and --out");
    return HFG_EINVAL;
  }
  if (o->on_duplicate != HFG_DUP_ERROR) {
    snprintf(rs->build.error, sizeof rs->build.error,
             "rekey keeps every old row: two old rows with one new key are an error, never "
             "a choice (--on-duplicate is for records)");
    return HFG_EINVAL;
  }
  job jb;
  rekey k;
  memset(&k, 0, sizeof k);
  k.j = &jb;
  k.ro = ro;
  k.rs = rs;
  int rc = hfg_build_begin(&jb, o, &rs->build);
  if (!rc) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    rs->as_of = ro->as_of >= 0 ? ro->as_of : (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
    rc = hfg_rekey_setup(&k);
  }
  if (!rc) rc = hfg_build_open_output(&jb);
  double t0 = now_s();
  if (!rc) rc = ingest(&k);
  if (!rc) rc = hfg_build_all_rejected(&jb);
  if (!rc) rc = hfg_build_sort_emit_publish(&jb, t0);
  hfg_buf_free(&k.payload);
  if (k.rows) jb.scheme = NULL; /* the rows' */
  hfg_rekey_rows_free(k.rows);
  return hfg_build_end(&jb, rc); /* a failed job leaves --out as it was (build_publish.c) */
}
