/*
 * Store files of a snapshot (format-specs/snapshot.md, "Store-file names",
 * "Where the bytes are", "Reference files"): the name grammars of
 * StoreFileInfo and HFileLink, HBase's naming rules, the two encodings of a
 * reference file, and the resolution of each listed name to the HFile that
 * holds its bytes, looked up as HFileLink does: data/, archive/data/,
 * .tmp/data/, mobdir/data/ under the root.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "input/snapshot_int.h"
#include "snapshot.pb-c.h"
#include "util/alloc.h"
#include "util/coding.h"

/* ---- names ---- */

static int is_hex(const char *p, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (!((p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'f'))) return 0;
  return 1;
}
static int is_digits(const char *p, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (p[i] < '0' || p[i] > '9') return 0;
  return 1;
}

/* HFILE_NAME_REGEX: [0-9a-f]+ (_SeqId_[0-9]+_ | _del)?; the bulk-load
 * sequence id into *seq (-1 without one; StoreFileInfo.getBulkloadSeqId). */
static int parse_hfile(const char *p, size_t n, int64_t *seq) {
  *seq = -1;
  size_t h = 0;
  while (h < n && is_hex(p + h, 1)) h++;
  if (!h) return 0;
  if (h == n) return 1;
  if (n - h == 4 && memcmp(p + h, "_del", 4) == 0) return 1;
  if (n - h < 9 || memcmp(p + h, "_SeqId_", 7) != 0 || p[n - 1] != '_') return 0;
  const char *d = p + h + 7;
  size_t dn = n - h - 8;
  if (!is_digits(d, dn)) return 0;
  int64_t v = 0;
  for (size_t i = 0; i < dn; i++) {
    if (v > (INT64_MAX - (d[i] - '0')) / 10) return 0; /* Long.parseLong overflows */
    v = v * 10 + (d[i] - '0');
  }
  *seq = v;
  return 1;
}

/* Letters of other scripts are allowed by HBase (Character.isAlphabetic):
 * bytes >= 0x80 are taken as such (no '/', NUL or '.' among them). */
static int name_char(uint8_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}

int snap_legal_namespace(const uint8_t *p, size_t n) {
  if (!n) return 0;
  for (size_t i = 0; i < n; i++)
    if (!name_char(p[i])) return 0;
  return 1;
}

int snap_legal_qualifier(const uint8_t *p, size_t n) {
  if (!n || p[0] == '.' || p[0] == '-') return 0;
  for (size_t i = 0; i < n; i++)
    if (!name_char(p[i]) && p[i] != '-' && p[i] != '.') return 0;
  return 1;
}

int snap_legal_family(const uint8_t *p, size_t n) {
  /* isLegalColumnFamilyName, and setColumnFamily's length limit (Byte.MAX_VALUE) */
  if (!n || n > 127 || p[0] == '.') return 0;
  for (size_t i = 0; i < n; i++)
    if (p[i] < 0x20 || p[i] == 0x7f || p[i] == ':' || p[i] == '\\' || p[i] == '/') return 0;
  return !(n == 15 && memcmp(p, "recovered.edits", 15) == 0);
}

int snap_parse_name(const char *name, size_t len, snap_name *o) {
  memset(o, 0, sizeof *o);
  /* '=' only appears in links: [ns=]qualifier=region-hfile[.parent] */
  const char *eq = NULL;
  for (size_t i = 0; i < len; i++)
    if (name[i] == '=') eq = name + i;
  size_t rest = eq ? (size_t)(eq + 1 - name) : 0; /* where region-hfile / hfile starts */
  if (eq) {
    const char *eq1 = memchr(name, '=', (size_t)(eq - name));
    size_t qo = eq1 ? (size_t)(eq1 + 1 - name) : 0;
    if (eq1 && !snap_legal_namespace((const uint8_t *)name, (size_t)(eq1 - name))) return 0;
    if (!snap_legal_qualifier((const uint8_t *)name + qo, (size_t)(eq - name) - qo)) return 0;
    o->ns_off = 0;
    o->ns_len = eq1 ? (size_t)(eq1 - name) : 0;
    o->qual_off = qo;
    o->qual_len = (size_t)(eq - name) - qo;
    const char *dash = memchr(name + rest, '-', len - rest);
    if (!dash || !is_hex(name + rest, (size_t)(dash - name) - rest)) return 0;
    o->region_off = rest;
    o->region_len = (size_t)(dash - name) - rest;
    rest = (size_t)(dash + 1 - name);
  }
  /* neither the hfile part nor a region name holds a '.': the first one after
   * `rest` starts the parent region of a reference */
  const char *dot = memchr(name + rest, '.', len - rest);
  size_t hend = dot ? (size_t)(dot - name) : len;
  if (!parse_hfile(name + rest, hend - rest, &o->bulk_seq_id)) return 0;
  o->hfile_off = rest;
  o->hfile_len = hend - rest;
  if (dot) {
    if (!is_hex(dot + 1, len - hend - 1)) return 0;
    o->parent_off = hend + 1;
    o->parent_len = len - hend - 1;
  }
  o->kind = eq ? (dot ? HFG_SNAP_LINK_REF : HFG_SNAP_LINK) : (dot ? HFG_SNAP_REF : HFG_SNAP_HFILE);
  return 1;
}

/* ---- references ---- */

int snap_parse_reference(const uint8_t *p, size_t n, hfg_snap_half *half, hfg_buf *key,
                         char *why, size_t whycap) {
  /* Reference.read reads 4 bytes first: a shorter file fails either way */
  if (n < 4) {
    snprintf(why, whycap, "reference file of %zu bytes (too short for either encoding)", n);
    return HFG_ECORRUPT;
  }
  if (memcmp(p, "PBUF", 4) == 0) {
    int nomem = 0;
    ProtobufCAllocator a;
    snap_pb_allocator(&a, &nomem);
    Hfg__Snap__Reference *r = hfg__snap__reference__unpack(&a, n - 4, p + 4);
    if (!r && nomem) {
      snprintf(why, whycap, "out of memory");
      return HFG_ENOMEM;
    }
    if (!r) {
      snprintf(why, whycap, "\"PBUF\" reference that does not decode (truncated or garbled "
                            "FSProtos.Reference)");
      return HFG_ECORRUPT;
    }
    int rc = 0;
    if (r->range > 1) {
      snprintf(why, whycap, "reference range %u is neither TOP (0) nor BOTTOM (1)", r->range);
      rc = HFG_ECORRUPT;
    } else if (hfg_buf_append(key, r->splitkey.data, r->splitkey.len)) {
      snprintf(why, whycap, "out of memory");
      rc = HFG_ENOMEM;
    } else {
      *half = r->range == 0 ? HFG_SNAP_TOP : HFG_SNAP_BOTTOM;
    }
    hfg__snap__reference__free_unpacked(r, &a);
    return rc;
  }
  /* the Writable of 0.94: DataInput.readBoolean (non-zero = top) and
   * Bytes.readByteArray (WritableUtils.readVInt length, then the bytes) */
  int64_t l;
  size_t k = hfg_get_vlong(p + 1, p + n, &l);
  if (!k || l < 0 || l > INT32_MAX || (uint64_t)l > n - 1 - k) {
    snprintf(why, whycap,
             "neither \"PBUF\" nor a legacy Writable reference (bad or overlong key length)");
    return HFG_ECORRUPT;
  }
  if ((uint64_t)l != n - 1 - k) {
    snprintf(why, whycap, "legacy Writable reference with %zu bytes after its key",
             n - 1 - k - (size_t)l);
    return HFG_ECORRUPT;
  }
  if (hfg_buf_append(key, p + 1 + k, (size_t)l)) {
    snprintf(why, whycap, "out of memory");
    return HFG_ENOMEM;
  }
  *half = p[0] ? HFG_SNAP_TOP : HFG_SNAP_BOTTOM;
  return 0;
}

int snap_split_row(const uint8_t *key, size_t n, const uint8_t **row, size_t *row_len, char *why,
                   size_t whycap) {
  /* [rowlen:2][row][famlen:1 = 0][ts:8 = Long.MAX_VALUE][type:1 = Maximum 0xff] */
  if (n < 12 || hfg_get_be16(key) != n - 12) {
    snprintf(why, whycap, "split key of %zu bytes is not a KeyValue key of one row", n);
    return HFG_ECORRUPT;
  }
  size_t rl = n - 12;
  const uint8_t *t = key + 2 + rl;
  if (t[0] != 0 || hfg_get_be64(t + 1) != (uint64_t)INT64_MAX || t[9] != 0xff) {
    snprintf(why, whycap,
             "split key is not firstOnRow(row) (family length %u, timestamp %" PRId64
             ", type %u)",
             t[0], (int64_t)hfg_get_be64(t + 1), t[9]);
    return HFG_ECORRUPT;
  }
  *row = key + 2;
  *row_len = rl;
  return 0;
}

/* ---- resolution ---- */

static const char *const AREA_DIRS[] = {"data", "archive/data", ".tmp/data", "mobdir/data"};

/* The first of ROOT/{data,archive/data,.tmp/data,mobdir/data}/ns/q/region/family/file
 * that is a regular file: its path, area and size; NULL (no error set) if none. */
static const char *find_file(hfg_snapshot *s, const char *ns, const char *q, const char *region,
                             const char *family, const char *file, hfg_snap_area *area,
                             uint64_t *size) {
  for (int a = 0; a < 4; a++) {
    char *p = snap_printf(s, "%s/%s/%s/%s/%s/%s/%s", s->info.root, AREA_DIRS[a], ns, q, region,
                          family, file);
    if (!p) return NULL;
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
      *area = (hfg_snap_area)a;
      *size = (uint64_t)st.st_size;
      return p;
    }
  }
  return NULL;
}

static const char *piece(hfg_snapshot *s, const char *name, size_t off, size_t len) {
  return snap_strndup(s, name + off, len);
}

/* The reference content of sf when the manifest did not carry it: the copy in
 * the snapshot directory (the v1 layout's name file), else the reference file
 * of the table's region (RestoreSnapshotHelper.restoreReferenceFile). */
static int load_reference(hfg_snapshot *s, const snap_rm *rm, const snap_ff *ff, const snap_sf *sf,
                          hfg_snap_half *half, const uint8_t **key, size_t *key_len) {
  const char *path = snap_printf(s, "%s/%s/%s/%s", s->info.dir, rm->encoded, ff->family, sf->name);
  const char *v1 = path;
  struct stat st;
  hfg_snap_area area;
  uint64_t size;
  if (!path) return s->err.code;
  if (stat(path, &st) || !S_ISREG(st.st_mode))
    path = find_file(s, s->info.table_namespace, s->info.table_qualifier, rm->encoded, ff->family,
                     sf->name, &area, &size);
  if (!path) {
    if (s->err.code) return s->err.code;
    return hfg_err_set(&s->err, HFG_ECORRUPT,
                       "reference %s (region %s, family %s): the manifest holds no Reference and "
                       "no reference file exists at %s nor at %s/{data,archive/data,.tmp/data,"
                       "mobdir/data}/%s/%s/%s/%s/%s",
                       sf->name, rm->encoded, ff->family, v1, s->info.root,
                       s->info.table_namespace, s->info.table_qualifier, rm->encoded, ff->family,
                       sf->name);
  }
  uint8_t *buf;
  size_t n;
  int en;
  int rc = snap_read_file(path, &buf, &n, &en);
  if (rc == HFG_ENOMEM) return hfg_err_set(&s->err, rc, "%s: out of memory", path);
  if (rc) return hfg_err_set(&s->err, rc, "%s: %s", path, strerror(en));
  char why[256];
  hfg_buf kb = HFG_BUF_INIT;
  rc = snap_parse_reference(buf, n, half, &kb, why, sizeof why);
  hfg_free(buf);
  if (rc) {
    hfg_buf_free(&kb);
    return hfg_err_set(&s->err, rc, "%s: %s", path, why);
  }
  *key = (const uint8_t *)snap_strndup(s, kb.p, kb.len);
  *key_len = kb.len;
  hfg_buf_free(&kb);
  return *key ? 0 : s->err.code;
}

static int resolve_file(hfg_snapshot *s, const snap_rm *rm, const snap_ff *ff, const snap_sf *sf,
                        hfg_snap_file *o) {
  const snap_name *nm = &sf->parsed;
  o->name = sf->name;
  o->kind = nm->kind;
  o->bulk_seq_id = nm->bulk_seq_id;
  /* the referred-to file: a link names it; a plain name is this region's; a
   * reference's is the parent region's (StoreFileInfo.getReferredToFile) */
  const char *ns = s->info.table_namespace, *q = s->info.table_qualifier;
  const char *region = rm->encoded;
  if (nm->kind == HFG_SNAP_LINK || nm->kind == HFG_SNAP_LINK_REF) {
    ns = nm->ns_len ? piece(s, sf->name, nm->ns_off, nm->ns_len) : "default";
    q = piece(s, sf->name, nm->qual_off, nm->qual_len);
    region = piece(s, sf->name, nm->region_off, nm->region_len);
  } else if (nm->kind == HFG_SNAP_REF) {
    region = piece(s, sf->name, nm->parent_off, nm->parent_len);
  }
  const char *hfile = piece(s, sf->name, nm->hfile_off, nm->hfile_len);
  if (!ns || !q || !region || !hfile) return s->err.code;
  o->ref_table = snap_printf(s, "%s:%s", ns, q);
  o->ref_region = region;
  o->ref_hfile = hfile;
  if (!o->ref_table) return s->err.code;
  int isref = nm->kind == HFG_SNAP_REF || nm->kind == HFG_SNAP_LINK_REF;
  o->path = find_file(s, ns, q, region, ff->family, hfile, &o->area, &o->size);
  if (!o->path) {
    if (s->err.code) return s->err.code;
    return hfg_err_set(&s->err, HFG_ECORRUPT,
                       "%s %s (region %s, family %s): %s not found at %s/{data,archive/data,"
                       ".tmp/data,mobdir/data}/%s/%s/%s/%s/%s",
                       hfg_snap_kind_name(nm->kind), sf->name, rm->encoded, ff->family,
                       isref ? "the reference's parent file" : "the HFile", s->info.root, ns, q,
                       region, ff->family, hfile);
  }
  if (sf->has_size && sf->size != o->size)
    return hfg_err_set(&s->err, HFG_ECORRUPT,
                       "%s %s (region %s, family %s): %s holds %" PRIu64
                       " bytes, the manifest says %" PRIu64 " (a truncated or different file)",
                       hfg_snap_kind_name(nm->kind), sf->name, rm->encoded, ff->family, o->path,
                       o->size, sf->size);
  o->half = HFG_SNAP_WHOLE;
  if (!isref) return 0;
  const uint8_t *key = sf->splitkey;
  size_t key_len = sf->splitkey_len;
  hfg_snap_half half = sf->half;
  if (!sf->has_ref && load_reference(s, rm, ff, sf, &half, &key, &key_len)) return s->err.code;
  char why[256];
  if (snap_split_row(key, key_len, &o->split_row, &o->split_row_len, why, sizeof why))
    return hfg_err_set(&s->err, HFG_ECORRUPT, "reference %s (region %s, family %s): %s", sf->name,
                       rm->encoded, ff->family, why);
  o->half = half;
  return 0;
}

int snap_resolve_region(hfg_snapshot *s, const snap_rm *rm, hfg_snap_region *out) {
  hfg_snap_store *st = snap_alloc(s, (s->nfam ? s->nfam : 1) * sizeof *st);
  if (!st) return s->err.code;
  for (size_t i = 0; i < rm->nfam; i++) {
    const snap_ff *ff = &rm->fams[i];
    long fi = hfg_snapshot_family_index(s, ff->family, ff->family_len);
    if (fi < 0)
      return hfg_err_set(&s->err, HFG_ECORRUPT,
                         "%s: region %s lists family %s, which the table schema does not have",
                         rm->source, rm->encoded, ff->family);
    if (st[fi].files)
      return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: region %s lists family %s twice", rm->source,
                         rm->encoded, ff->family);
    hfg_snap_file *files = snap_alloc(s, (ff->nfiles ? ff->nfiles : 1) * sizeof *files);
    if (!files) return s->err.code;
    for (size_t k = 0; k < ff->nfiles; k++)
      if (resolve_file(s, rm, ff, &ff->files[k], &files[k])) return s->err.code;
    st[fi].files = files;
    st[fi].nfiles = ff->nfiles;
  }
  out->stores = st;
  return 0;
}

const char *hfg_snap_kind_name(hfg_snap_kind k) {
  switch (k) {
    case HFG_SNAP_HFILE: return "hfile";
    case HFG_SNAP_LINK: return "link";
    case HFG_SNAP_REF: return "reference";
    case HFG_SNAP_LINK_REF: return "link reference";
  }
  return "?";
}

const char *hfg_snap_half_name(hfg_snap_half h) {
  return h == HFG_SNAP_TOP ? "top" : h == HFG_SNAP_BOTTOM ? "bottom" : "whole";
}

const char *hfg_snap_area_name(hfg_snap_area a) {
  static const char *const n[] = {"data", "archive", ".tmp", "mobdir", "dir"};
  return (unsigned)a < 5 ? n[a] : "?";
}
