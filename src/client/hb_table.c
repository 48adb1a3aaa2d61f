/*
 * hbase:meta rows and table descriptors (format-specs/hbase-rpc.md, "hbase:meta"
 * and "Table descriptor"). Meta rows of table T are "T" (family "table",
 * qualifier "state": a bare TableState, no PBUF magic) and "T,<start key>,<region id>.<encoded>."
 * (family "info", qualifier "regioninfo": PBUF + RegionInfo).
 */
#include "client/hb_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/hb_wire.h"
#include "hbase-rpc.pb-c.h"
#include "util/alloc.h"
#include "util/coding.h"

int hb_table_name(const char *table, char *row, size_t row_cap, char *ns, size_t ns_cap,
                  char *qual, size_t qual_cap) {
  if (!table || !*table) return -1;
  const char *colon = strchr(table, ':');
  const char *q = colon ? colon + 1 : table;
  size_t nsl = colon ? (size_t)(colon - table) : 7;
  const char *nsp = colon ? table : "default";
  if (!*q || nsl == 0 || strchr(q, ':')) return -1;
  /* TableName.isLegalTableQualifierName: [a-zA-Z_0-9-.], not starting with '.' or '-' */
  for (const char *p = q; *p; p++) {
    char c = *p;
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '_' || ((c == '-' || c == '.') && p != q);
    if (!ok) return -1;
  }
  for (size_t i = 0; i < nsl; i++) {
    char c = nsp[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
             c == '_';
    if (!ok) return -1;
  }
  int is_default = nsl == 7 && !memcmp(nsp, "default", 7);
  int w1 = is_default ? snprintf(row, row_cap, "%s", q)
                      : snprintf(row, row_cap, "%.*s:%s", (int)nsl, nsp, q);
  int w2 = snprintf(ns, ns_cap, "%.*s", (int)nsl, nsp);
  int w3 = snprintf(qual, qual_cap, "%s", q);
  if (w1 < 0 || (size_t)w1 >= row_cap || w2 < 0 || (size_t)w2 >= ns_cap || w3 < 0 ||
      (size_t)w3 >= qual_cap)
    return -1;
  return 0;
}

void hb_meta_init(hb_meta_acc *a, hfg_hbase_table *t, const char *row) {
  memset(a, 0, sizeof *a);
  a->t = t;
  snprintf(a->row, sizeof a->row, "%s", row);
  a->row_len = strlen(a->row);
  a->state = -1;
}

static int bytes_eq(const ProtobufCBinaryData *b, const char *s) {
  size_t n = strlen(s);
  return b->len == n && (!n || !memcmp(b->data, s, n));
}

static int add_region(hb_meta_acc *a, const Hfg__Hbrpc__RegionInfo *ri, hfg_err *err) {
  hfg_hbase_table *t = a->t;
  if (t->nregions == a->cap) {
    size_t nc = a->cap ? a->cap * 2 : 16;
    hfg_hbase_region *p = hfg_realloc(t->regions, nc * sizeof *p);
    if (!p) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    t->regions = p;
    a->cap = nc;
  }
  hfg_hbase_region *r = &t->regions[t->nregions];
  memset(r, 0, sizeof *r);
  r->region_id = ri->region_id;
  r->start_len = ri->has_start_key ? ri->start_key.len : 0;
  r->end_len = ri->has_end_key ? ri->end_key.len : 0;
  /* one spare byte so that an empty key is a valid pointer too */
  r->start = hfg_calloc(1, r->start_len + 1);
  r->end = hfg_calloc(1, r->end_len + 1);
  if (r->start && r->start_len) memcpy(r->start, ri->start_key.data, r->start_len);
  if (r->end && r->end_len) memcpy(r->end, ri->end_key.data, r->end_len);
  if (!r->start || !r->end) {
    hfg_free(r->start);
    hfg_free(r->end);
    return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  }
  t->nregions++;
  return 0;
}

static int add_cell(hb_meta_acc *a, const Hfg__Hbrpc__Cell *c, hfg_err *err) {
  if (!c->has_row || !c->has_family || !c->has_qualifier || !c->has_value) return 0;
  const ProtobufCBinaryData *row = &c->row;
  int is_state_row = row->len == a->row_len && !memcmp(row->data, a->row, a->row_len);
  int is_region_row = row->len > a->row_len && !memcmp(row->data, a->row, a->row_len) &&
                      row->data[a->row_len] == ',';
  const uint8_t *pb;
  size_t n;
  if (is_state_row && bytes_eq(&c->family, "table") && bytes_eq(&c->qualifier, "state")) {
    /* a bare TableState (MetaTableAccessor.addTableStateToPut writes toByteArray()) */
    pb = c->value.data;
    n = c->value.len;
    Hfg__Hbrpc__TableState *s = hfg__hbrpc__table_state__unpack(hb_pb_allocator(), n, pb);
    if (!s)
      return hfg_err_set(err, HFG_ECORRUPT, "hbase:meta row '%s' table:state: malformed TableState",
                         a->row);
    a->state = s->state;
    hfg__hbrpc__table_state__free_unpacked(s, hb_pb_allocator());
    return 0;
  }
  if (!is_region_row || !bytes_eq(&c->family, "info") || !bytes_eq(&c->qualifier, "regioninfo"))
    return 0;
  a->rows_seen++;
  if (hb_pbuf_value(c->value.data, c->value.len, &pb, &n, err)) {
    hfg_err_prefix(err, "hbase:meta info:regioninfo of table '%s'", a->row);
    return err->code;
  }
  Hfg__Hbrpc__RegionInfo *ri = hfg__hbrpc__region_info__unpack(hb_pb_allocator(), n, pb);
  if (!ri)
    return hfg_err_set(err, HFG_ECORRUPT, "hbase:meta info:regioninfo of table '%s': malformed "
                       "RegionInfo", a->row);
  int rc = 0;
  /* RegionLocator skips split parents (kept in meta until the catalog janitor removes
   * them): MutableRegionInfo.isSplitParent() is isSplit(), offline or not; replicas
   * other than 0 are never listed */
  if (ri->has_split && ri->split) a->t->skipped_split_parents++;
  else if (!(ri->has_replica_id && ri->replica_id != 0)) rc = add_region(a, ri, err);
  hfg__hbrpc__region_info__free_unpacked(ri, hb_pb_allocator());
  return rc;
}

int hb_meta_add_response(hb_meta_acc *a, const uint8_t *body, size_t len, int *more,
                         uint64_t *scanner_id, int *has_scanner_id, hfg_err *err) {
  Hfg__Hbrpc__ScanResponse *r = hfg__hbrpc__scan_response__unpack(hb_pb_allocator(), len, body);
  if (!r) return hfg_err_set(err, HFG_ECORRUPT, "hbase:meta scan: malformed ScanResponse");
  int rc = 0;
  for (size_t i = 0; i < r->n_results && !rc; i++)
    for (size_t k = 0; k < r->results[i]->n_cell && !rc; k++)
      rc = add_cell(a, r->results[i]->cell[k], err);
  if (r->n_cells_per_result && !r->n_results && !rc)
    rc = hfg_err_set(err, HFG_EUNSUPPORTED, "hbase:meta scan: results came in a cell block");
  if (r->has_scanner_id) {
    *scanner_id = r->scanner_id;
    *has_scanner_id = 1;
  }
  /* more_results_in_region is what a region scanner reports; older servers only
   * more_results. A heartbeat carries no rows but more to come. */
  if (r->has_more_results_in_region) *more = r->more_results_in_region;
  else *more = r->has_more_results && r->more_results && (r->n_results > 0 ||
                                                          (r->has_heartbeat_message &&
                                                           r->heartbeat_message));
  if (r->has_more_results && !r->more_results) *more = 0;
  hfg__hbrpc__scan_response__free_unpacked(r, hb_pb_allocator());
  return rc;
}

static int key_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  return hfg_bytes_cmp(a, an, b, bn);
}

static int region_cmp(const void *x, const void *y) {
  const hfg_hbase_region *a = x, *b = y;
  return key_cmp(a->start, a->start_len, b->start, b->start_len);
}

static const char *STATE_NAMES[] = {"ENABLED", "DISABLED", "DISABLING", "ENABLING"};

int hb_meta_finish(hb_meta_acc *a, hfg_err *err) {
  hfg_hbase_table *t = a->t;
  if (a->state < 0 && t->nregions == 0 && a->rows_seen == 0)
    return hfg_err_set(err, HFG_EINVAL, "table '%s' not found (no such table in hbase:meta)",
                       a->row);
  if (a->state > 0)
    return hfg_err_set(err, HFG_ESTATE,
                       "table '%s' is %s: completebulkload cannot load into it (enable it "
                       "first: hbase shell> enable '%s')",
                       a->row, a->state < 4 ? STATE_NAMES[a->state] : "not enabled", a->row);
  if (t->nregions == 0)
    return hfg_err_set(err, HFG_EIO, "table '%s' has no region in hbase:meta but %zu split "
                       "parents", a->row, t->skipped_split_parents);
  qsort(t->regions, t->nregions, sizeof *t->regions, region_cmp);
  hfg_hbase_region *r = t->regions;
  if (r[0].start_len)
    return hfg_err_set(err, HFG_EIO, "table '%s': the first region in hbase:meta does not start "
                       "at the empty key (a split or merge in progress?)", a->row);
  for (size_t i = 0; i + 1 < t->nregions; i++)
    if (key_cmp(r[i].end, r[i].end_len, r[i + 1].start, r[i + 1].start_len))
      return hfg_err_set(err, HFG_EIO, "table '%s': regions %zu and %zu in hbase:meta do not "
                         "meet (a hole or an overlap: a split or merge in progress?)",
                         a->row, i, i + 1);
  if (r[t->nregions - 1].end_len)
    return hfg_err_set(err, HFG_EIO, "table '%s': the last region in hbase:meta does not end at "
                       "the empty key (a split or merge in progress?)", a->row);
  return 0;
}

/* ---- table descriptor ---- */

static char *attr_str(const ProtobufCBinaryData *v) {
  char *s = hfg_malloc(v->len + 1);
  if (!s) return NULL;
  if (v->len) memcpy(s, v->data, v->len);
  s[v->len] = '\0';
  return s;
}

static int attr_is(const Hfg__Hbrpc__BytesBytesPair *p, const char *key) {
  return bytes_eq(&p->first, key);
}

/* BLOCKSIZE is stored as a decimal string (2.6 also accepts "64KB" in the shell,
 * stored converted to bytes). */
static int parse_u64(const char *s, uint64_t *out) {
  if (!*s) return -1;
  uint64_t v = 0;
  for (const char *p = s; *p; p++) {
    if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10) return -1;
    v = v * 10 + (uint64_t)(*p - '0');
  }
  *out = v;
  return 0;
}

static int family_decode(const Hfg__Hbrpc__ColumnFamilySchema *cf, hfg_hbase_family *f,
                         const char *table, hfg_err *err) {
  memset(f, 0, sizeof *f);
  f->block_size = 65536;
  if (!(f->name = attr_str(&cf->name))) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
  for (size_t i = 0; i < cf->n_attributes; i++) {
    const Hfg__Hbrpc__BytesBytesPair *p = cf->attributes[i];
    char **dst = attr_is(p, "COMPRESSION")           ? &f->compression
                 : attr_is(p, "BLOOMFILTER")         ? &f->bloom
                 : attr_is(p, "DATA_BLOCK_ENCODING") ? &f->encoding
                                                     : NULL;
    if (dst) {
      hfg_free(*dst);
      if (!(*dst = attr_str(&p->second))) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    } else if (attr_is(p, "BLOCKSIZE")) {
      char *s = attr_str(&p->second);
      uint64_t v;
      if (!s) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
      int bad = parse_u64(s, &v) || v == 0 || v > (1u << 30);
      if (bad) {
        hfg_err_set(err, HFG_ECORRUPT, "table '%s' family '%s': BLOCKSIZE '%s' is not a size",
                    table, f->name, s);
        hfg_free(s);
        return err->code;
      }
      hfg_free(s);
      f->block_size = (uint32_t)v;
    }
  }
  for (size_t i = 0; i < cf->n_configuration; i++) {
    const Hfg__Hbrpc__NameStringPair *p = cf->configuration[i];
    char **dst = !strcmp(p->name, "RowPrefixBloomFilter.prefix_length") ? &f->bloom_prefix_length
                 : !strcmp(p->name, "hbase.io.compress.zstd.codec")     ? &f->zstd_codec
                                                                        : NULL;
    if (dst) {
      hfg_free(*dst);
      if (!(*dst = hfg_strdup(p->value))) return hfg_err_set(err, HFG_ENOMEM, "out of memory");
    }
  }
  /* ColumnFamilyDescriptorBuilder's defaults for what the descriptor leaves unset */
  if (!f->compression && !(f->compression = hfg_strdup("NONE"))) goto nomem;
  if (!f->bloom && !(f->bloom = hfg_strdup("ROW"))) goto nomem;
  if (!f->encoding && !(f->encoding = hfg_strdup("NONE"))) goto nomem;
  return 0;
nomem:
  return hfg_err_set(err, HFG_ENOMEM, "out of memory");
}

/* DataBlockEncoding's names and the encodings hfilegen writes under them
 * (hbase-common/.../io/encoding/DataBlockEncoding.java); PREFIX_TREE is left out. */
static const struct {
  const char *name;
  hfg_encoding enc;
} hbase_encodings[] = {{"NONE", HFG_ENCODING_NONE},
                       {"PREFIX", HFG_ENCODING_PREFIX},
                       {"DIFF", HFG_ENCODING_DIFF},
                       {"FAST_DIFF", HFG_ENCODING_FAST_DIFF},
                       {"ROW_INDEX_V1", HFG_ENCODING_ROW_INDEX_V1}};

int hfg_hbase_family_encoding(const hfg_hbase_family *f, hfg_encoding *out) {
  const char *e = f && f->encoding ? f->encoding : "NONE";
  for (size_t i = 0; i < sizeof hbase_encodings / sizeof *hbase_encodings; i++)
    if (!strcasecmp(e, hbase_encodings[i].name)) {
      *out = hbase_encodings[i].enc;
      return 0;
    }
  return HFG_EUNSUPPORTED;
}

int hb_schema_decode(const uint8_t *body, size_t len, const char *table, hfg_hbase_table *t,
                     hfg_err *err) {
  char row[512], ns[256], qual[256];
  if (hb_table_name(table, row, sizeof row, ns, sizeof ns, qual, sizeof qual))
    return hfg_err_set(err, HFG_EINVAL, "'%s' is not a valid table name", table);
  Hfg__Hbrpc__GetTableDescriptorsResponse *r =
      hfg__hbrpc__get_table_descriptors_response__unpack(hb_pb_allocator(), len, body);
  if (!r) return hfg_err_set(err, HFG_ECORRUPT, "GetTableDescriptors: malformed response");
  const Hfg__Hbrpc__TableSchema *ts = NULL;
  for (size_t i = 0; i < r->n_table_schema && !ts; i++) {
    const Hfg__Hbrpc__TableName *tn = r->table_schema[i]->table_name;
    if (tn && bytes_eq(&tn->namespace_, ns) && bytes_eq(&tn->qualifier, qual))
      ts = r->table_schema[i];
  }
  int rc = 0;
  if (!ts) {
    rc = hfg_err_set(err, HFG_EINVAL, "table '%s' not found (the master has no descriptor for it)",
                     row);
    goto out;
  }
  t->max_file_size = 0;
  for (size_t i = 0; i < ts->n_attributes; i++) {
    if (!attr_is(ts->attributes[i], "MAX_FILESIZE")) continue;
    char *s = attr_str(&ts->attributes[i]->second);
    if (!s) {
      rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
      goto out;
    }
    uint64_t v;
    if (!parse_u64(s, &v)) t->max_file_size = v;
    hfg_free(s);
  }
  t->families = ts->n_column_families ? hfg_calloc(ts->n_column_families, sizeof *t->families)
                                      : NULL;
  if (ts->n_column_families && !t->families) {
    rc = hfg_err_set(err, HFG_ENOMEM, "out of memory");
    goto out;
  }
  for (size_t i = 0; i < ts->n_column_families && !rc; i++) {
    rc = family_decode(ts->column_families[i], &t->families[i], row, err);
    t->nfamilies = i + 1;
  }
  if (!rc) t->has_schema = 1;
out:
  hfg__hbrpc__get_table_descriptors_response__free_unpacked(r, hb_pb_allocator());
  return rc;
}
