/*
 * The protobuf files of a snapshot (format-specs/snapshot.md, "Files and their
 * encodings"), decoded with protobuf-c over format-specs/snapshot.proto:
 *   .snapshotinfo          SnapshotDescription, raw
 *   data.manifest          SnapshotDataManifest, raw
 *   region-manifest.<r>    SnapshotRegionManifest, raw
 *   .regioninfo            "PBUF" + varint length + RegionInfo
 *   .tableinfo.<seq>[.<n>] "PBUF" + TableSchema
 * and the schema: table and family descriptors with HBase's defaults
 * (ColumnFamilyDescriptorBuilder / TableDescriptorBuilder getters). protobuf-c
 * bounds every length by the input; what it accepts is then checked here:
 * names by HBase's rules, numbers by Java's parseInt, enums by their values.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "input/snapshot_int.h"
#include "snapshot.pb-c.h"
#include "util/alloc.h"
#include "util/coding.h"
#include "util/hashes.h"

/* protobuf-c allocations through util/alloc.h; *data is raised when one fails,
 * so that a NULL unpack tells out-of-memory from malformed bytes. */
static void *pb_alloc(void *data, size_t n) {
  void *p = hfg_malloc(n ? n : 1);
  if (!p) *(int *)data = 1;
  return p;
}
static void pb_free(void *data, void *p) {
  (void)data;
  hfg_free(p);
}

void snap_pb_allocator(ProtobufCAllocator *a, int *nomem) {
  *nomem = 0;
  a->alloc = pb_alloc;
  a->free = pb_free;
  a->allocator_data = nomem;
}

static int pb_fail(hfg_snapshot *s, int nomem, const char *file, const char *what) {
  if (nomem) return hfg_err_set(&s->err, HFG_ENOMEM, "%s: out of memory", file);
  return hfg_err_set(&s->err, HFG_ECORRUPT,
                     "%s: not a valid %s (truncated or garbled protobuf)", file, what);
}

/* ---- numbers and enums as HBase's getters parse them ---- */

/* Java Long.parseLong / Integer.parseInt over v[0..n): an optional sign, ASCII
 * digits, within [lo, hi]. */
static int parse_int(const char *v, size_t n, int64_t lo, int64_t hi, int64_t *out) {
  size_t i = 0;
  int neg = 0;
  if (n && (v[0] == '-' || v[0] == '+')) neg = v[i++] == '-';
  if (i == n) return 0;
  uint64_t x = 0, lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  for (; i < n; i++) {
    if (v[i] < '0' || v[i] > '9') return 0;
    unsigned d = (unsigned)(v[i] - '0');
    if (x > (lim - d) / 10) return 0;
    x = x * 10 + d;
  }
  int64_t r = neg ? (x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x) : (int64_t)x;
  if (r < lo || r > hi) return 0;
  *out = r;
  return 1;
}

/* The canonical (upper-case) member of names[] equal to v ignoring case, or NULL. */
static const char *pick_name(const char *v, size_t n, const char *const *names) {
  for (; *names; names++) {
    if (strlen(*names) != n) continue;
    size_t i = 0;
    while (i < n && toupper((unsigned char)v[i]) == (*names)[i]) i++;
    if (i == n) return *names;
  }
  return NULL;
}

static int is_true(const char *v) { return v && strcasecmp(v, "true") == 0; }

/* ---- names ---- */

static int has_nul(const ProtobufCBinaryData *b) { return b->len && memchr(b->data, 0, b->len); }

/* The table of a TableName message into *ns / *q (validated). */
static int conv_table(hfg_snapshot *s, const Hfg__Snap__TableName *t, const char *file,
                      const char **ns, const char **q) {
  if (!snap_legal_namespace(t->namespace_.data, t->namespace_.len) ||
      !snap_legal_qualifier(t->qualifier.data, t->qualifier.len))
    return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: table name '%s:%s' is not a legal HBase table name",
                       file, snap_esc(s, t->namespace_.data, t->namespace_.len),
                       snap_esc(s, t->qualifier.data, t->qualifier.len));
  *ns = snap_strndup(s, t->namespace_.data, t->namespace_.len);
  *q = snap_strndup(s, t->qualifier.data, t->qualifier.len);
  return *ns && *q ? 0 : s->err.code;
}

/* RegionInfo.createRegionName(table, start, id, replica, newFormat) hashed as
 * RegionInfo.encodeRegionName does: lowercase hex MD5 of
 * "<table>,<start>,<id>[_<replica %04X>]", where <table> omits "default:". */
int snap_encode_region(hfg_snapshot *s, snap_rm *rm) {
  size_t tl = strlen(rm->tqual) + (strcmp(rm->tns, "default") ? strlen(rm->tns) + 1 : 0);
  size_t n = tl + rm->start_len + 40;
  uint8_t *b = hfg_malloc(n);
  if (!b) return hfg_err_set(&s->err, HFG_ENOMEM, "out of memory");
  size_t k = 0;
  if (strcmp(rm->tns, "default")) k += (size_t)sprintf((char *)b, "%s:", rm->tns);
  memcpy(b + k, rm->tqual, strlen(rm->tqual));
  k += strlen(rm->tqual);
  b[k++] = ',';
  if (rm->start_len) memcpy(b + k, rm->start, rm->start_len);
  k += rm->start_len;
  k += (size_t)sprintf((char *)b + k, ",%" PRId64, (int64_t)rm->region_id);
  if (rm->replica_id > 0) k += (size_t)sprintf((char *)b + k, "_%04X", (unsigned)rm->replica_id);
  uint8_t d[HFG_MD5_LEN];
  hfg_hash_md5(b, k, d);
  hfg_free(b);
  for (int i = 0; i < HFG_MD5_LEN; i++) sprintf(rm->encoded + 2 * i, "%02x", d[i]);
  return 0;
}

static int conv_regioninfo(hfg_snapshot *s, const Hfg__Snap__RegionInfo *ri, const char *file,
                           snap_rm *rm) {
  if (conv_table(s, ri->table_name, file, &rm->tns, &rm->tqual)) return s->err.code;
  rm->region_id = ri->region_id;
  rm->start_len = ri->has_start_key ? ri->start_key.len : 0;
  rm->end_len = ri->has_end_key ? ri->end_key.len : 0;
  rm->start = (const uint8_t *)snap_strndup(s, ri->start_key.data, rm->start_len);
  rm->end = (const uint8_t *)snap_strndup(s, ri->end_key.data, rm->end_len);
  if (!rm->start || !rm->end) return s->err.code;
  rm->offline = ri->has_offline && ri->offline;
  rm->split = ri->has_split && ri->split;
  rm->replica_id = ri->has_replica_id ? ri->replica_id : 0;
  rm->source = snap_strndup(s, file, strlen(file));
  if (!rm->source) return s->err.code;
  return snap_encode_region(s, rm);
}

static int conv_region_manifest(hfg_snapshot *s, const Hfg__Snap__SnapshotRegionManifest *m,
                                const char *file) {
  snap_rm *rm = snap_add_rm(s);
  if (!rm || conv_regioninfo(s, m->region_info, file, rm)) return s->err.code;
  rm->nfam = m->n_family_files;
  rm->fams = snap_alloc(s, rm->nfam * sizeof *rm->fams);
  if (rm->nfam && !rm->fams) return s->err.code;
  for (size_t i = 0; i < rm->nfam; i++) {
    const Hfg__Snap__SnapshotRegionManifest__FamilyFiles *ff = m->family_files[i];
    snap_ff *f = &rm->fams[i];
    if (!snap_legal_family(ff->family_name.data, ff->family_name.len))
      return hfg_err_set(&s->err, HFG_ECORRUPT,
                         "%s: region %s: '%s' is not a legal column family name", file,
                         rm->encoded, snap_esc(s, ff->family_name.data, ff->family_name.len));
    f->family = snap_strndup(s, ff->family_name.data, ff->family_name.len);
    f->family_len = ff->family_name.len;
    f->nfiles = ff->n_store_files;
    f->files = snap_alloc(s, f->nfiles * sizeof *f->files);
    if (!f->family || (f->nfiles && !f->files)) return s->err.code;
    for (size_t k = 0; k < f->nfiles; k++) {
      const Hfg__Snap__SnapshotRegionManifest__StoreFile *sf = ff->store_files[k];
      snap_sf *o = &f->files[k];
      if (has_nul(&sf->name) || !snap_parse_name((const char *)sf->name.data, sf->name.len, &o->parsed))
        return hfg_err_set(&s->err, HFG_ECORRUPT,
                           "%s: region %s family %s: '%s' is not a store-file name", file,
                           rm->encoded, f->family, snap_esc(s, sf->name.data, sf->name.len));
      o->name = snap_strndup(s, sf->name.data, sf->name.len);
      if (!o->name) return s->err.code;
      int isref = o->parsed.kind == HFG_SNAP_REF || o->parsed.kind == HFG_SNAP_LINK_REF;
      if (sf->reference) {
        if (!isref)
          return hfg_err_set(&s->err, HFG_ECORRUPT,
                             "%s: region %s family %s: %s carries a Reference but is not a "
                             "reference name",
                             file, rm->encoded, f->family, o->name);
        if (sf->reference->range > 1)
          return hfg_err_set(&s->err, HFG_ECORRUPT,
                             "%s: region %s family %s: reference %s: range %u is neither TOP (0) "
                             "nor BOTTOM (1)",
                             file, rm->encoded, f->family, o->name, sf->reference->range);
        o->has_ref = 1;
        o->half = sf->reference->range == 0 ? HFG_SNAP_TOP : HFG_SNAP_BOTTOM;
        o->splitkey_len = sf->reference->splitkey.len;
        o->splitkey = (const uint8_t *)snap_strndup(s, sf->reference->splitkey.data, o->splitkey_len);
        if (!o->splitkey) return s->err.code;
      }
      o->has_size = sf->has_file_size;
      o->size = sf->file_size;
    }
  }
  return 0;
}

/* ---- schema ---- */

/* Copies a list of pairs; *n and *kv receive the copy. */
static int conv_pairs(hfg_snapshot *s, size_t nb, Hfg__Snap__BytesBytesPair **b, size_t nn,
                      Hfg__Snap__NameStringPair **ns, size_t *n, const hfg_snap_kv **out) {
  *n = nb + nn;
  hfg_snap_kv *kv = snap_alloc(s, (*n ? *n : 1) * sizeof *kv);
  *out = kv;
  if (!kv) return s->err.code;
  for (size_t i = 0; i < *n; i++) {
    const ProtobufCBinaryData *k = i < nb ? &b[i]->first : &ns[i - nb]->name;
    const ProtobufCBinaryData *v = i < nb ? &b[i]->second : &ns[i - nb]->value;
    hfg_snap_kv *o = &kv[i];
    o->key = snap_strndup(s, k->data, k->len);
    o->value = snap_strndup(s, v->data, v->len);
    if (!o->key || !o->value) return s->err.code;
    o->key_len = k->len;
    o->value_len = v->len;
  }
  return 0;
}

/* The last value of key in kv[0..n); an empty value removes the key (setValue). */
static const char *kv_find(const hfg_snap_kv *kv, size_t n, const char *key) {
  size_t kl = strlen(key);
  for (size_t i = n; i-- > 0;)
    if (kv[i].key_len == kl && memcmp(kv[i].key, key, kl) == 0)
      return kv[i].value_len ? kv[i].value : NULL;
  return NULL;
}

const char *hfg_snap_family_attr(const hfg_snap_family *f, const char *key) {
  const char *v = kv_find(f->attrs, f->nattrs, key);
  return v ? v : kv_find(f->conf, f->nconf, key);
}

static const char *const COMPRESSIONS[] = {"NONE", "GZ",   "SNAPPY", "LZ4",    "ZSTD",
                                           "LZO",  "BZIP2", "LZMA",  "BROTLI", NULL};
static const char *const BLOOMS[] = {"NONE", "ROW", "ROWCOL", "ROWPREFIX_FIXED_LENGTH", NULL};
static const char *const ENCODINGS[] = {"NONE", "PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1", NULL};
static const char *const KDC[] = {"FALSE", "TRUE", "TTL", NULL};

/* One setting: the value of key (or dflt when absent) parsed as an int32. */
static int fam_int(hfg_snapshot *s, const hfg_snap_family *f, const char *file, const char *key,
                   int32_t dflt, int32_t *out) {
  const char *v = hfg_snap_family_attr(f, key);
  int64_t x = dflt;
  if (v && !parse_int(v, strlen(v), INT32_MIN, INT32_MAX, &x))
    return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: family %s: %s '%s' is not a number HBase reads",
                       file, f->name, key, snap_esc(s, v, strlen(v)));
  *out = (int32_t)x;
  return 0;
}

static int fam_enum(hfg_snapshot *s, const hfg_snap_family *f, const char *file, const char *key,
                    const char *const *names, const char **out) {
  const char *v = hfg_snap_family_attr(f, key);
  *out = v ? pick_name(v, strlen(v), names) : names[0];
  if (!*out)
    return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: family %s: unknown %s '%s'", file, f->name,
                       key, snap_esc(s, v, strlen(v)));
  return 0;
}

static int conv_family(hfg_snapshot *s, const Hfg__Snap__ColumnFamilySchema *c, const char *file,
                       hfg_snap_family *f) {
  if (!snap_legal_family(c->name.data, c->name.len))
    return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: '%s' is not a legal column family name", file,
                       snap_esc(s, c->name.data, c->name.len));
  f->name = snap_strndup(s, c->name.data, c->name.len);
  f->name_len = c->name.len;
  if (!f->name || conv_pairs(s, c->n_attributes, c->attributes, 0, NULL, &f->nattrs, &f->attrs) ||
      conv_pairs(s, 0, NULL, c->n_configuration, c->configuration, &f->nconf, &f->conf))
    return s->err.code;
  if (is_true(hfg_snap_family_attr(f, "IS_MOB")))
    return hfg_err_set(&s->err, HFG_EUNSUPPORTED,
                       "%s: family %s is a MOB family (IS_MOB=true): its cells hold references "
                       "to MOB files, which the snapshot reader does not follow",
                       file, f->name);
  if (hfg_snap_family_attr(f, "ENCRYPTION"))
    return hfg_err_set(&s->err, HFG_EUNSUPPORTED,
                       "%s: family %s is encrypted (ENCRYPTION=%s): its HFiles cannot be read "
                       "without the cluster's key",
                       file, f->name, hfg_snap_family_attr(f, "ENCRYPTION"));
  const char *pl = hfg_snap_family_attr(f, "RowPrefixBloomFilter.prefix_length");
  int64_t x = -1;
  if (pl && !parse_int(pl, strlen(pl), 1, INT32_MAX, &x))
    return hfg_err_set(&s->err, HFG_ECORRUPT,
                       "%s: family %s: RowPrefixBloomFilter.prefix_length '%s' is not a positive "
                       "number",
                       file, f->name, snap_esc(s, pl, strlen(pl)));
  f->bloom_prefix_length = (int32_t)x;
  f->new_version_behavior = is_true(hfg_snap_family_attr(f, "NEW_VERSION_BEHAVIOR"));
  /* as the getters parse them (Integer.parseInt); what a value means is the caller's */
  if (fam_int(s, f, file, "VERSIONS", 1, &f->versions) ||
      fam_int(s, f, file, "MIN_VERSIONS", 0, &f->min_versions) ||
      fam_int(s, f, file, "TTL", INT32_MAX, &f->ttl) ||
      fam_int(s, f, file, "BLOCKSIZE", 64 * 1024, &f->blocksize) ||
      fam_enum(s, f, file, "KEEP_DELETED_CELLS", KDC, &f->keep_deleted_cells) ||
      fam_enum(s, f, file, "COMPRESSION", COMPRESSIONS, &f->compression) ||
      fam_enum(s, f, file, "BLOOMFILTER", BLOOMS, &f->bloomfilter) ||
      fam_enum(s, f, file, "DATA_BLOCK_ENCODING", ENCODINGS, &f->data_block_encoding))
    return s->err.code;
  /* BLOOMS[0] is NONE for the lookup; HBase's default bloom is ROW */
  if (!hfg_snap_family_attr(f, "BLOOMFILTER")) f->bloomfilter = BLOOMS[1];
  return 0;
}

static int cmp_family(const void *a, const void *b) {
  const hfg_snap_family *x = a, *y = b;
  return hfg_bytes_cmp((const uint8_t *)x->name, x->name_len, (const uint8_t *)y->name, y->name_len);
}

static int conv_schema(hfg_snapshot *s, const Hfg__Snap__TableSchema *ts, const char *file) {
  hfg_snap_info *in = &s->info;
  if (ts->table_name) {
    const char *ns, *q;
    if (conv_table(s, ts->table_name, file, &ns, &q)) return s->err.code;
    if (!in->table_qualifier) {
      in->table_namespace = ns;
      in->table_qualifier = q;
    } else if (strcmp(ns, in->table_namespace) || strcmp(q, in->table_qualifier)) {
      return hfg_err_set(&s->err, HFG_ECORRUPT,
                         "%s: the schema is of table %s:%s, the snapshot of table %s", file, ns, q,
                         in->table);
    }
  }
  if (conv_pairs(s, ts->n_attributes, ts->attributes, ts->n_configuration, ts->configuration,
                 &in->nattrs, &in->attrs))
    return s->err.code;
  const char *mfs = kv_find(in->attrs, in->nattrs, "MAX_FILESIZE");
  int64_t x = -1;
  if (mfs && !parse_int(mfs, strlen(mfs), INT64_MIN, INT64_MAX, &x))
    return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: table attribute MAX_FILESIZE '%s' is not a number",
                       file, snap_esc(s, mfs, strlen(mfs)));
  in->max_file_size = x;
  s->nfam = ts->n_column_families;
  s->fams = snap_alloc(s, s->nfam * sizeof *s->fams);
  if (s->nfam && !s->fams) return s->err.code;
  for (size_t i = 0; i < s->nfam; i++)
    if (conv_family(s, ts->column_families[i], file, &s->fams[i])) return s->err.code;
  if (s->nfam > 1) qsort(s->fams, s->nfam, sizeof *s->fams, cmp_family);
  for (size_t i = 1; i < s->nfam; i++)
    if (!cmp_family(&s->fams[i - 1], &s->fams[i]))
      return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: family %s is defined twice", file,
                         s->fams[i].name);
  s->has_schema = 1;
  return 0;
}

/* ---- the files ---- */

int snap_pb_description(hfg_snapshot *s, const uint8_t *p, size_t n, const char *file) {
  int nomem = 0;
  ProtobufCAllocator a = {pb_alloc, pb_free, &nomem};
  Hfg__Snap__SnapshotDescription *d = hfg__snap__snapshot_description__unpack(&a, n, p);
  if (!d) return pb_fail(s, nomem, file, "SnapshotDescription");
  hfg_snap_info *in = &s->info;
  int rc = 0;
  if (has_nul(&d->name) || !snap_legal_qualifier(d->name.data, d->name.len)) {
    rc = hfg_err_set(&s->err, HFG_ECORRUPT, "%s: snapshot name '%s' is not a legal snapshot name",
                     file, snap_esc(s, d->name.data, d->name.len));
    goto out;
  }
  in->name = snap_strndup(s, d->name.data, d->name.len);
  if (!in->name) goto fail;
  if (!d->has_table) {
    /* SnapshotDescriptionUtils.validate requires it of every snapshot taken */
    rc = hfg_err_set(&s->err, HFG_ECORRUPT, "%s: names no table", file);
    goto out;
  }
  {
    /* TableName.valueOf(String): "ns:qualifier", or "qualifier" in namespace default */
    const uint8_t *t = d->table.data, *c = d->table.len ? memchr(t, ':', d->table.len) : NULL;
    size_t nl = c ? (size_t)(c - t) : 0, qo = c ? nl + 1 : 0;
    if ((c && !snap_legal_namespace(t, nl)) || !snap_legal_qualifier(t + qo, d->table.len - qo)) {
      rc = hfg_err_set(&s->err, HFG_ECORRUPT, "%s: table '%s' is not a legal HBase table name",
                       file, snap_esc(s, t, d->table.len));
      goto out;
    }
    in->table_namespace = c ? snap_strndup(s, t, nl) : "default";
    in->table_qualifier = snap_strndup(s, t + qo, d->table.len - qo);
    if (!in->table_namespace || !in->table_qualifier) goto fail;
  }
  in->version = d->has_version ? d->version : 0;
  in->creation_time = d->creation_time;
  in->type = d->type;
  in->ttl = d->ttl;
  in->max_file_size = -1;
  if (in->version != 0 && in->version != 2)
    rc = hfg_err_set(&s->err, HFG_EUNSUPPORTED,
                     "%s: snapshot version %d is not one HBase writes (0: the v1 layout, 2: the v2 "
                     "layout)",
                     file, (int)in->version);
  goto out;
fail:
  rc = s->err.code;
out:
  hfg__snap__snapshot_description__free_unpacked(d, &a);
  return rc;
}

int snap_pb_data_manifest(hfg_snapshot *s, const uint8_t *p, size_t n, const char *file) {
  int nomem = 0;
  ProtobufCAllocator a = {pb_alloc, pb_free, &nomem};
  Hfg__Snap__SnapshotDataManifest *m = hfg__snap__snapshot_data_manifest__unpack(&a, n, p);
  if (!m) return pb_fail(s, nomem, file, "SnapshotDataManifest");
  int rc = conv_schema(s, m->table_schema, file);
  for (size_t i = 0; !rc && i < m->n_region_manifests; i++)
    rc = conv_region_manifest(s, m->region_manifests[i], file);
  hfg__snap__snapshot_data_manifest__free_unpacked(m, &a);
  return rc;
}

int snap_pb_region_manifest(hfg_snapshot *s, const uint8_t *p, size_t n, const char *file) {
  int nomem = 0;
  ProtobufCAllocator a = {pb_alloc, pb_free, &nomem};
  Hfg__Snap__SnapshotRegionManifest *m = hfg__snap__snapshot_region_manifest__unpack(&a, n, p);
  if (!m) return pb_fail(s, nomem, file, "SnapshotRegionManifest");
  int rc = conv_region_manifest(s, m, file);
  hfg__snap__snapshot_region_manifest__free_unpacked(m, &a);
  return rc;
}

int snap_pb_regioninfo(hfg_snapshot *s, const uint8_t *p, size_t n, const char *file,
                       snap_rm *rm) {
  /* RegionInfo.parseFrom(DataInputStream): the magic, then parseDelimitedFrom */
  if (n < 4 || memcmp(p, "PBUF", 4) != 0)
    return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: no \"PBUF\" magic (HBase wants a protobuf RegionInfo)",
                       file);
  uint64_t len;
  size_t k = hfg_get_varint(p + 4, p + n, &len);
  if (!k || len > n - 4 - k)
    return hfg_err_set(&s->err, HFG_ECORRUPT,
                       "%s: RegionInfo length prefix invalid or past the end of the file (%zu bytes)",
                       file, n);
  int nomem = 0;
  ProtobufCAllocator a = {pb_alloc, pb_free, &nomem};
  Hfg__Snap__RegionInfo *ri = hfg__snap__region_info__unpack(&a, (size_t)len, p + 4 + k);
  if (!ri) return pb_fail(s, nomem, file, "RegionInfo");
  int rc = conv_regioninfo(s, ri, file, rm);
  hfg__snap__region_info__free_unpacked(ri, &a);
  return rc;
}

int snap_pb_tableinfo(hfg_snapshot *s, const uint8_t *p, size_t n, const char *file) {
  /* TableDescriptorBuilder.parseFrom: the magic, then TableSchema to the end */
  if (n < 4 || memcmp(p, "PBUF", 4) != 0)
    return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: no \"PBUF\" magic (HBase wants a protobuf TableSchema)",
                       file);
  int nomem = 0;
  ProtobufCAllocator a = {pb_alloc, pb_free, &nomem};
  Hfg__Snap__TableSchema *ts = hfg__snap__table_schema__unpack(&a, n - 4, p + 4);
  if (!ts) return pb_fail(s, nomem, file, "TableSchema");
  int rc = conv_schema(s, ts, file);
  hfg__snap__table_schema__free_unpacked(ts, &a);
  return rc;
}
