/*
 * Builds HBase snapshot directory trees for the snapshot reader's tests
 * (test_snapshot*.c): .snapshotinfo, data.manifest, region manifests,
 * .regioninfo and .tableinfo bytes packed by protobuf-c from
 * format-specs/snapshot.proto, reference files in both encodings, and the
 * HFiles' places under data/, archive/data/, .tmp/data/, mobdir/data/.
 * Everything a test allocates is freed by sb_reset().
 */
#ifndef HFG_TESTS_SNAPSHOT_BUILD_H
#define HFG_TESTS_SNAPSHOT_BUILD_H

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snapshot.pb-c.h"
#include "util/hashes.h"

/* ---- memory of one test ---- */
static void *sb_ptrs[4096];
static size_t sb_nptrs;
static void *sb_new(size_t n) {
  void *p = calloc(1, n ? n : 1);
  if (sb_nptrs < sizeof sb_ptrs / sizeof *sb_ptrs) sb_ptrs[sb_nptrs++] = p;
  return p;
}
static char *sb_str(const char *s) {
  char *d = sb_new(strlen(s) + 1);
  memcpy(d, s, strlen(s));
  return d;
}
static void sb_reset(void) {
  while (sb_nptrs) free(sb_ptrs[--sb_nptrs]);
}
static ProtobufCBinaryData sb_bin(const char *s) {
  return (ProtobufCBinaryData){strlen(s), (uint8_t *)sb_str(s)};
}

/* ---- files ---- */
static void sb_mkdirs(const char *path) {
  char b[2048];
  snprintf(b, sizeof b, "%s", path);
  for (char *p = b + 1; *p; p++)
    if (*p == '/') {
      *p = 0;
      mkdir(b, 0755);
      *p = '/';
    }
  mkdir(b, 0755);
}
static void sb_put(const char *root, const char *rel, const void *p, size_t n) {
  char path[2048];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  char dir[2048];
  snprintf(dir, sizeof dir, "%s", path);
  char *sl = strrchr(dir, '/');
  *sl = 0;
  sb_mkdirs(dir);
  FILE *f = fopen(path, "wb");
  if (!f) {
    perror(path);
    abort();
  }
  if (n) fwrite(p, 1, n, f);
  fclose(f);
}
static void sb_puts(const char *root, const char *rel, const char *s) {
  sb_put(root, rel, s, strlen(s));
}
/* a packed message, after an optional prefix ("PBUF", or "PBUF" + varint length) */
static void sb_putpb(const char *root, const char *rel, const ProtobufCMessage *m, int magic,
                     int delimited) {
  size_t n = protobuf_c_message_get_packed_size(m);
  uint8_t *b = sb_new(n + 16);
  size_t k = 0;
  if (magic) memcpy(b, "PBUF", 4), k = 4;
  if (delimited) {
    size_t v = n;
    do {
      b[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
      v >>= 7;
    } while (v);
  }
  protobuf_c_message_pack(m, b + k);
  sb_put(root, rel, b, k + n);
}
/* an empty scratch directory BINARY_DIR/snapshot.tmp/<name> */
static const char *sb_root(const char *name) {
  static char r[8][1024];
  static int k;
  char *d = r[k++ % 8];
  snprintf(d, 1024, "%s/snapshot.tmp/%s", HFG_BINARY_DIR, name);
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
  if (system(cmd) != 0) abort();
  sb_mkdirs(d);
  return d;
}

/* ---- messages ---- */
static Hfg__Snap__TableName *sb_table(const char *ns, const char *q) {
  Hfg__Snap__TableName *t = sb_new(sizeof *t);
  hfg__snap__table_name__init(t);
  t->namespace_ = sb_bin(ns);
  t->qualifier = sb_bin(q);
  return t;
}

/* kv: NULL-terminated key, value, key, value ... */
static Hfg__Snap__ColumnFamilySchema *sb_family(const char *name, const char *const *kv,
                                                const char *const *conf) {
  Hfg__Snap__ColumnFamilySchema *c = sb_new(sizeof *c);
  hfg__snap__column_family_schema__init(c);
  c->name = sb_bin(name);
  for (size_t i = 0; kv && kv[i]; i += 2) c->n_attributes++;
  c->attributes = sb_new(c->n_attributes * sizeof *c->attributes);
  for (size_t i = 0; i < c->n_attributes; i++) {
    Hfg__Snap__BytesBytesPair *p = sb_new(sizeof *p);
    hfg__snap__bytes_bytes_pair__init(p);
    p->first = sb_bin(kv[2 * i]);
    p->second = sb_bin(kv[2 * i + 1]);
    c->attributes[i] = p;
  }
  for (size_t i = 0; conf && conf[i]; i += 2) c->n_configuration++;
  c->configuration = sb_new(c->n_configuration * sizeof *c->configuration);
  for (size_t i = 0; i < c->n_configuration; i++) {
    Hfg__Snap__NameStringPair *p = sb_new(sizeof *p);
    hfg__snap__name_string_pair__init(p);
    p->name = sb_bin(conf[2 * i]);
    p->value = sb_bin(conf[2 * i + 1]);
    c->configuration[i] = p;
  }
  return c;
}

static Hfg__Snap__TableSchema *sb_schema(const char *ns, const char *q,
                                         Hfg__Snap__ColumnFamilySchema **fams, size_t nf,
                                         const char *const *kv) {
  Hfg__Snap__TableSchema *t = sb_new(sizeof *t);
  hfg__snap__table_schema__init(t);
  t->table_name = sb_table(ns, q);
  t->column_families = fams;
  t->n_column_families = nf;
  for (size_t i = 0; kv && kv[i]; i += 2) t->n_attributes++;
  t->attributes = sb_new(t->n_attributes * sizeof *t->attributes);
  for (size_t i = 0; i < t->n_attributes; i++) {
    Hfg__Snap__BytesBytesPair *p = sb_new(sizeof *p);
    hfg__snap__bytes_bytes_pair__init(p);
    p->first = sb_bin(kv[2 * i]);
    p->second = sb_bin(kv[2 * i + 1]);
    t->attributes[i] = p;
  }
  return t;
}

/* firstOnRow(row) as a KeyValue key */
static ProtobufCBinaryData sb_splitkey(const char *row) {
  size_t rl = strlen(row);
  uint8_t *k = sb_new(rl + 12);
  k[0] = (uint8_t)(rl >> 8);
  k[1] = (uint8_t)rl;
  memcpy(k + 2, row, rl);
  k[2 + rl] = 0;
  k[3 + rl] = 0x7f;
  memset(k + 4 + rl, 0xff, 8);
  return (ProtobufCBinaryData){rl + 12, k};
}

/* A store file of a region: family, name; ref 0 none, 1 TOP, 2 BOTTOM with the
 * split row (embedded in the manifest); size < 0 leaves file_size unset. */
typedef struct sb_file {
  const char *fam, *name;
  int ref;
  const char *row;
  long long size;
} sb_file;

typedef struct sb_region {
  const char *start, *end;
  uint64_t id;
  int offline, split;
  const sb_file *files;
  size_t nfiles;
} sb_region;

static Hfg__Snap__RegionInfo *sb_regioninfo(const char *ns, const char *q, const sb_region *r) {
  Hfg__Snap__RegionInfo *ri = sb_new(sizeof *ri);
  hfg__snap__region_info__init(ri);
  ri->region_id = r->id;
  ri->table_name = sb_table(ns, q);
  ri->has_start_key = ri->has_end_key = 1;
  ri->start_key = sb_bin(r->start);
  ri->end_key = sb_bin(r->end);
  ri->has_offline = ri->has_split = 1;
  ri->offline = r->offline;
  ri->split = r->split;
  return ri;
}

static Hfg__Snap__SnapshotRegionManifest *sb_region_manifest(const char *ns, const char *q,
                                                             const sb_region *r) {
  Hfg__Snap__SnapshotRegionManifest *m = sb_new(sizeof *m);
  hfg__snap__snapshot_region_manifest__init(m);
  m->region_info = sb_regioninfo(ns, q, r);
  m->family_files = sb_new((r->nfiles + 1) * sizeof *m->family_files);
  for (size_t i = 0; i < r->nfiles; i++) {
    const sb_file *f = &r->files[i];
    Hfg__Snap__SnapshotRegionManifest__FamilyFiles *ff = NULL;
    for (size_t k = 0; k < m->n_family_files; k++)
      if (!strcmp((char *)m->family_files[k]->family_name.data, f->fam)) ff = m->family_files[k];
    if (!ff) {
      ff = sb_new(sizeof *ff);
      hfg__snap__snapshot_region_manifest__family_files__init(ff);
      ff->family_name = sb_bin(f->fam);
      ff->store_files = sb_new((r->nfiles + 1) * sizeof *ff->store_files);
      m->family_files[m->n_family_files++] = ff;
    }
    Hfg__Snap__SnapshotRegionManifest__StoreFile *sf = sb_new(sizeof *sf);
    hfg__snap__snapshot_region_manifest__store_file__init(sf);
    sf->name = sb_bin(f->name);
    if (f->size >= 0) {
      sf->has_file_size = 1;
      sf->file_size = (uint64_t)f->size;
    }
    if (f->ref) {
      Hfg__Snap__Reference *rf = sb_new(sizeof *rf);
      hfg__snap__reference__init(rf);
      rf->splitkey = sb_splitkey(f->row);
      rf->range = f->ref == 1 ? 0 : 1;
      sf->reference = rf;
    }
    ff->store_files[ff->n_store_files++] = sf;
  }
  return m;
}

static void sb_snapshotinfo(const char *root, const char *name, const char *table, int version) {
  Hfg__Snap__SnapshotDescription d = HFG__SNAP__SNAPSHOT_DESCRIPTION__INIT;
  d.name = sb_bin(name);
  if (table) {
    d.has_table = 1;
    d.table = sb_bin(table);
  }
  d.has_creation_time = 1;
  d.creation_time = 1771389133051LL;
  if (version >= 0) {
    d.has_version = 1;
    d.version = version;
  }
  char rel[512];
  snprintf(rel, sizeof rel, ".hbase-snapshot/%s/.snapshotinfo", name);
  sb_putpb(root, rel, &d.base, 0, 0);
}

static void sb_data_manifest(const char *root, const char *name, Hfg__Snap__TableSchema *ts,
                             const char *ns, const char *q, const sb_region *regions, size_t nr) {
  Hfg__Snap__SnapshotDataManifest m = HFG__SNAP__SNAPSHOT_DATA_MANIFEST__INIT;
  m.table_schema = ts;
  m.n_region_manifests = nr;
  m.region_manifests = sb_new((nr + 1) * sizeof *m.region_manifests);
  for (size_t i = 0; i < nr; i++) m.region_manifests[i] = sb_region_manifest(ns, q, &regions[i]);
  char rel[512];
  snprintf(rel, sizeof rel, ".hbase-snapshot/%s/data.manifest", name);
  sb_putpb(root, rel, &m.base, 0, 0);
}

/* The encoded name of table ns:q's region with start key start and id:
 * md5("<table>,<start>,<id>") in hex, the table without "default:". */
static const char *sb_encoded(const char *ns, const char *q, const char *start, uint64_t id) {
  char b[1024];
  int n = snprintf(b, sizeof b, "%s%s%s,%s,%" PRIu64, strcmp(ns, "default") ? ns : "",
                   strcmp(ns, "default") ? ":" : "", q, start, id);
  uint8_t d[HFG_MD5_LEN];
  hfg_hash_md5(b, (size_t)n, d);
  char *h = sb_new(33);
  for (int i = 0; i < HFG_MD5_LEN; i++) sprintf(h + 2 * i, "%02x", d[i]);
  return h;
}

/* An HFile's bytes at <area>/<ns>/<q>/<region>/<fam>/<file>; returns its size. */
static long sb_hfile(const char *root, const char *area, const char *ns, const char *q,
                     const char *region, const char *fam, const char *file) {
  char rel[1024], body[1200];
  snprintf(rel, sizeof rel, "%s/%s/%s/%s/%s/%s", area, ns, q, region, fam, file);
  int n = snprintf(body, sizeof body, "HFILE %s/%s", area, file);
  sb_put(root, rel, body, (size_t)n);
  return n;
}

/* A reference file's bytes: "PBUF" + FSProtos.Reference, or the legacy
 * Writable (1 byte top, Hadoop vint length, key). */
static size_t sb_reference_bytes(uint8_t *out, int top, const char *row, int legacy) {
  ProtobufCBinaryData k = sb_splitkey(row);
  if (legacy) {
    out[0] = (uint8_t)top;
    out[1] = (uint8_t)k.len; /* < 128: one byte */
    memcpy(out + 2, k.data, k.len);
    return 2 + k.len;
  }
  Hfg__Snap__Reference r = HFG__SNAP__REFERENCE__INIT;
  r.splitkey = k;
  r.range = top ? 0 : 1;
  memcpy(out, "PBUF", 4);
  return 4 + protobuf_c_message_pack(&r.base, out + 4);
}

#endif
