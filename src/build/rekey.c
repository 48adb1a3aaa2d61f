/*
 * hfg_rekey_run (include/hfilegen/rekey.h): the build job's stages over the
 * cells of a snapshot (or of family folders of HFiles) instead of records.
 *
 *   begin → snapshot open (input/snapshot.h) → old-key pattern and new rowkey
 *   (hfilegen/keyparse.h) → families and their HFile options from the
 *   snapshot's schema, under --table and --family-option → open_output →
 *   ingest: per old region, one store scan per family (input/store_scan.h),
 *   their rows merged by row; each old row parsed, re-keyed and handed to the
 *   sorter as typed cells (cell_payload.h) → sort_emit_publish → end.
 *
 * Ingest runs on one thread, regions in start-key order, so the sorter sees
 * the same records in the same order at every --threads (emit, which runs
 * regions in parallel, is byte-identical at every thread count already).
 */
#define _GNU_SOURCE
#include "hfilegen/rekey.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "build/build_internal.h"
#include "build/cell_payload.h"
#include "format/codec.h"
#include "hfilegen/keyparse.h"
#include "hfilegen/reader.h"
#include "input/snapshot.h"
#include "input/store_scan.h"
#include "util/alloc.h"
#include "util/escape.h"

void hfg_rekey_options_init(hfg_rekey_options *o) {
  memset(o, 0, sizeof *o);
  o->version = HFG_REKEY_OPTIONS_VERSION;
  o->as_of = -1;
  hfg_build_options_init(&o->build);
}

void hfg_rekey_summary_free(hfg_rekey_summary *s) { hfg_build_summary_free(&s->build); }

typedef struct rekey {
  job *j;
  const hfg_rekey_options *ro;
  hfg_rekey_summary *rs;
  hfg_snapshot *snap;
  hfg_keyparse *kp;
  hfg_buf payload;
  hfg_keyparse_result kr;
} rekey;

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

static int setup(rekey *k) {
  job *j = k->j;
  const hfg_rekey_options *ro = k->ro;
  int rc = hfg_snapshot_open(ro->from_dir, ro->snapshot, &k->snap);
  if (rc) {
    return fail(j, rc, "%s", k->snap ? hfg_snapshot_errmsg(k->snap) : "out of memory");
  }
  const hfg_snap_info *si = hfg_snapshot_info(k->snap);
  if (si->table) snprintf(k->rs->snapshot_table, sizeof k->rs->snapshot_table, "%s", si->table);
  char msg[1024];
  if ((rc = hfg_keyparse_compile(ro->old_key, &k->kp, msg, sizeof msg)))
    return fail(j, rc == HFG_ENOMEM ? rc : HFG_EINVAL, "--old-key '%s': %s", ro->old_key, msg);
  if ((rc = hfg_keyparse_rowkey(k->kp, j->o->rowkey, &j->scheme, msg, sizeof msg)))
    return fail(j, rc == HFG_ENOMEM ? rc : HFG_EINVAL, "rowkey '%s': %s", j->o->rowkey, msg);
  if ((rc = hfg_keyparse_check_rekey(k->kp, j->scheme, k->rs->warning, sizeof k->rs->warning,
                                     msg, sizeof msg)))
    return fail(j, rc, "%s", msg);
  size_t nf = hfg_snapshot_nfamilies(k->snap);
  if (nf == 0) return fail(j, HFG_EINVAL, "%s: the table has no column family", ro->from_dir);
  if (nf > UINT16_MAX) return fail(j, HFG_EINVAL, "%s: more than %u families", ro->from_dir,
                                   UINT16_MAX);
  hfg_build_family *base = hfg_calloc(nf, sizeof *base);
  if (!base) return fail(j, HFG_ENOMEM, "out of memory");
  for (size_t f = 0; f < nf && !rc; f++) {
    const hfg_snap_family *sf = hfg_snapshot_family(k->snap, f);
    hfg_err e = {0};
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

/* A rejected old row: the rejects file names the region and the row's bytes. */
static int reject_row(rekey *k, size_t region, uint64_t ordinal, const uint8_t *row, size_t len,
                      const char *reason) {
  job *j = k->j;
  const hfg_snap_region *r = hfg_snapshot_region(k->snap, region);
  j->sum->records_rejected++;
  if (j->rejects) {
    fprintf(j->rejects, "region %s\t%llu\t", r->encoded[0] ? r->encoded : "-",
            (unsigned long long)ordinal);
    for (const char *p = reason; *p; p++) fputc(*p == '\t' || *p == '\n' ? ' ' : *p, j->rejects);
    fputc('\t', j->rejects);
    hfg_escape_fputs(j->rejects, row, len);
    fputc('\n', j->rejects);
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
static int add_row(rekey *k, size_t region, uint64_t ordinal, const uint8_t *row, size_t rlen,
                   const hfg_cell *const *cells, const size_t *ncells) {
  job *j = k->j;
  j->sum->records_read++;
  char why[1024];
  int rc = hfg_keyparse_parse(k->kp, row, rlen, &k->kr, why, sizeof why);
  uint8_t key[HBASE_MAX_ROW + 1];
  size_t klen = 0;
  if (!rc)
    rc = hfg_scheme_eval(j->scheme, k->kr.fields, hfg_keyparse_field_count(k->kp), key,
                         sizeof key, &klen, why, sizeof why);
  if (rc == HFG_ETOOBIG || (!rc && klen > HBASE_MAX_ROW)) {
    snprintf(why, sizeof why, "the new rowkey is longer than HBase's %d bytes", HBASE_MAX_ROW);
    rc = HFG_EPARSE;
  } else if (!rc && klen == 0) {
    snprintf(why, sizeof why, "the new rowkey is empty");
    rc = HFG_EPARSE;
  }
  if (rc == HFG_EPARSE) return reject_row(k, region, ordinal, row, rlen, why);
  if (rc) return fail(j, rc, "old row %llu: %s", (unsigned long long)ordinal, why);
  if (klen > LONG_KEY) j->sum->long_keys++;
  hfg_buf_reset(&k->payload);
  if (hfg_cell_payload_begin(&k->payload, 0, ordinal, (uint16_t)region))
    return fail(j, HFG_ENOMEM, "out of memory");
  for (size_t f = 0; f < j->nfamilies; f++)
    for (size_t c = 0; c < ncells[f]; c++)
      if ((rc = hfg_cell_payload_add(&k->payload, (uint16_t)f, &cells[f][c])))
        return fail(j, rc, "old row %llu: a cell HBase cannot hold", (unsigned long long)ordinal);
  size_t nr = hfg_splits_region(&j->splits, key, klen);
  hfg_err e = {0};
  if (hfg_sorter_add(j->sorter, nr, key, klen, j->sum->records_read, k->payload.p, k->payload.len,
                     &e))
    return fail(j, e.code, "%s", e.msg);
  return 0;
}

/* A scan's read error names the store file as the region lists it; the message adds
 * the region, the family and the path of the bytes (a link's or reference's target). */
static int scan_fail(rekey *k, const hfg_snap_region *reg, size_t f, hfg_store_scan *scan,
                     int code) {
  const char *msg = hfg_store_scan_errmsg(scan);
  const hfg_snap_store *st = &reg->stores[f];
  const char *path = NULL;
  for (size_t i = 0; i < st->nfiles && !path; i++)
    if (st->files[i].name && strstr(msg, st->files[i].name)) path = st->files[i].path;
  return fail(k->j, code, "%s%s%sfamily %s: %s%s%s%s", reg->encoded[0] ? "region " : "",
              reg->encoded, reg->encoded[0] ? ", " : "", hfg_snapshot_family(k->snap, f)->name,
              msg, path ? " (file " : "", path ? path : "", path ? ")" : "");
}

static int rowcmp(const hfg_cell *a, const hfg_cell *b) {
  return hfg_bytes_cmp(a->row, a->row_len, b->row, b->row_len);
}

/* One old region: a store scan per family, rows merged across families. */
static int ingest_region(rekey *k, size_t ri, hfg_store_scan **scans, hfg_reader ***readers,
                         size_t *nreaders) {
  job *j = k->j;
  const hfg_rekey_options *ro = k->ro;
  const hfg_snap_region *reg = hfg_snapshot_region(k->snap, ri);
  size_t nf = j->nfamilies;
  int rc = 0;
  for (size_t f = 0; f < nf && !rc; f++) {
    const hfg_snap_family *sf = hfg_snapshot_family(k->snap, f);
    hfg_store_scan_options so = HFG_STORE_SCAN_OPTIONS_INIT;
    so.raw = ro->raw;
    so.as_of_ms = k->rs->as_of;
    if (ro->snapshot) {
      so.versions = sf->versions;
      so.min_versions = sf->min_versions;
      so.ttl_seconds = sf->ttl;
      so.keep_deleted = !sf->keep_deleted_cells ? HFG_KEEP_DELETED_FALSE
                        : !strcasecmp(sf->keep_deleted_cells, "TRUE") ? HFG_KEEP_DELETED_TRUE
                        : !strcasecmp(sf->keep_deleted_cells, "TTL")  ? HFG_KEEP_DELETED_TTL
                                                                      : HFG_KEEP_DELETED_FALSE;
      so.new_version_behavior = sf->new_version_behavior;
    } else {
      so.versions = INT32_MAX; /* family folders: no schema, every version is kept */
    }
    so.family = (const uint8_t *)sf->name;
    so.family_len = sf->name_len;
    so.start_row = reg->start_key;
    so.start_row_len = reg->start_key_len;
    so.end_row = reg->end_key;
    so.end_row_len = reg->end_key_len;
    rc = hfg_store_scan_create(&so, &scans[f]);
    if (rc) {
      fail(j, rc, "family %s: %s", sf->name, scans[f] ? hfg_store_scan_errmsg(scans[f])
                                                       : "out of memory");
      break;
    }
    const hfg_snap_store *st = &reg->stores[f];
    for (size_t i = 0; i < st->nfiles && !rc; i++) {
      const hfg_snap_file *sfile = &st->files[i];
      hfg_reader *r = NULL;
      rc = hfg_reader_open(sfile->path, &r);
      hfg_reader **grown = hfg_realloc(*readers, (*nreaders + 1) * sizeof **readers);
      if (!grown) {
        hfg_reader_close(r);
        rc = fail(j, HFG_ENOMEM, "out of memory");
        break;
      }
      *readers = grown;
      (*readers)[(*nreaders)++] = r;
      if (rc) {
        fail(j, rc, "%s: %s", sfile->path, r ? hfg_reader_errmsg(r) : "out of memory");
        break;
      }
      hfg_store_file sf2;
      memset(&sf2, 0, sizeof sf2);
      sf2.reader = r;
      sf2.name = sfile->name;
      sf2.half = sfile->half == HFG_SNAP_TOP      ? HFG_HALF_TOP
                 : sfile->half == HFG_SNAP_BOTTOM ? HFG_HALF_BOTTOM
                                                  : HFG_HALF_WHOLE;
      sf2.split_row = sfile->split_row;
      sf2.split_row_len = sfile->split_row_len;
      if ((rc = hfg_store_scan_describe(scans[f], &sf2)) ||
          (rc = hfg_store_scan_add(scans[f], &sf2)))
        fail(j, rc, "%s: %s", sfile->path, hfg_store_scan_errmsg(scans[f]));
      k->rs->store_files++;
    }
  }
  if (rc) return rc;
  /* the current row of each family's scan */
  const hfg_cell **cur = hfg_calloc(nf, sizeof *cur);
  size_t *ncur = hfg_calloc(nf, sizeof *ncur);
  const hfg_cell **take = hfg_calloc(nf, sizeof *take);
  size_t *ntake = hfg_calloc(nf, sizeof *ntake);
  if (!cur || !ncur || !take || !ntake) rc = fail(j, HFG_ENOMEM, "out of memory");
  for (size_t f = 0; f < nf && !rc; f++) {
    int n = hfg_store_scan_next_row(scans[f], &cur[f], &ncur[f]);
    if (n < 0) rc = scan_fail(k, reg, f, scans[f], n);
    if (n == 0) ncur[f] = 0, cur[f] = NULL;
  }
  uint64_t ordinal = 0;
  while (!rc && !atomic_load(&j->failed)) {
    if (canceled(j)) {
      rc = fail(j, HFG_ECANCELED, "canceled during ingest");
      break;
    }
    const hfg_cell *min = NULL;
    for (size_t f = 0; f < nf; f++)
      if (cur[f] && (!min || rowcmp(cur[f], min) < 0)) min = cur[f];
    if (!min) break;
    for (size_t f = 0; f < nf; f++) {
      int same = cur[f] && rowcmp(cur[f], min) == 0;
      take[f] = same ? cur[f] : NULL;
      ntake[f] = same ? ncur[f] : 0;
    }
    ordinal++;
    /* the rows' cells stay valid until each family's scan moves on */
    rc = add_row(k, ri, ordinal, min->row, min->row_len, take, ntake);
    for (size_t f = 0; f < nf && !rc; f++) {
      if (!take[f]) continue;
      int n = hfg_store_scan_next_row(scans[f], &cur[f], &ncur[f]);
      if (n < 0) rc = scan_fail(k, reg, f, scans[f], n);
      if (n == 0) ncur[f] = 0, cur[f] = NULL;
    }
  }
  for (size_t f = 0; f < nf; f++) {
    if (!scans[f]) continue;
    hfg_store_scan_counts c;
    hfg_store_scan_counts_get(scans[f], &c);
    k->rs->cells_read += c.cells_read;
    k->rs->markers_read += c.markers_read;
    k->rs->dropped_deleted += c.dropped_deleted;
    k->rs->dropped_markers += c.dropped_marker;
    k->rs->dropped_expired += c.dropped_expired;
    k->rs->dropped_versions += c.dropped_versions;
    k->rs->dropped_duplicate += c.dropped_duplicate;
    k->rs->dropped_outside += c.dropped_outside;
  }
  hfg_free(cur);
  hfg_free(ncur);
  hfg_free(take);
  hfg_free(ntake);
  return rc;
}

static int ingest(rekey *k) {
  job *j = k->j;
  size_t nf = j->nfamilies;
  hfg_store_scan **scans = hfg_calloc(nf, sizeof *scans);
  if (!scans) return fail(j, HFG_ENOMEM, "out of memory");
  int rc = 0;
  for (size_t ri = 0; ri < hfg_snapshot_nregions(k->snap) && !rc; ri++) {
    const hfg_snap_region *reg = hfg_snapshot_region(k->snap, ri);
    if (j->ninput_names < sizeof j->input_names / sizeof *j->input_names)
      j->input_names[j->ninput_names++] = reg->encoded[0] ? reg->encoded : k->ro->from_dir;
    hfg_reader **readers = NULL;
    size_t nreaders = 0;
    rc = ingest_region(k, ri, scans, &readers, &nreaders);
    for (size_t f = 0; f < nf; f++) {
      hfg_store_scan_free(scans[f]);
      scans[f] = NULL;
    }
    for (size_t i = 0; i < nreaders; i++) hfg_reader_close(readers[i]);
    hfg_free(readers);
  }
  hfg_free(scans);
  return rc;
}

/* A failed job leaves the output directory as it found it: build's publisher brings a
 * failed job's directory back with its (empty) family folders, so when the job created
 * it, the empty folders and then the directory go, unless something stays in it (the
 * rejects file a --max-rejects failure points to). */
static void tidy_failed_out(const char *out) {
  DIR *d = opendir(out);
  if (!d) return;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    char sub[4400];
    snprintf(sub, sizeof sub, "%s/%s", out, de->d_name);
    rmdir(sub); /* fails, and keeps it, unless it is an empty directory */
  }
  closedir(d);
  rmdir(out);
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
  struct stat st;
  int out_existed = stat(o->out_dir, &st) == 0;
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
    rc = setup(&k);
  }
  if (!rc) rc = hfg_build_open_output(&jb);
  double t0 = now_s();
  if (!rc) rc = ingest(&k);
  if (!rc) rc = hfg_build_all_rejected(&jb);
  if (!rc) rc = hfg_build_sort_emit_publish(&jb, t0);
  hfg_buf_free(&k.payload);
  hfg_keyparse_free(k.kp);
  hfg_snapshot_free(k.snap);
  rc = hfg_build_end(&jb, rc);
  if (rc && !out_existed) tidy_failed_out(o->out_dir);
  return rc;
}
