/*
 * Snapshot reader: open (snapshot.h). Finds the snapshot directory, loads its
 * manifest in the layout its version names (SnapshotManifest.load), or lists a
 * directory of family folders; then picks the regions to read
 * (TableSnapshotInputFormatImpl.getRegionInfosFromManifest's rule), checks
 * they tile the key space, and resolves their store files (snapshot_files.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/snapshot_int.h"
#include "util/alloc.h"
#include "util/coding.h"
#include "util/escape.h"

/* ---- snapshot-owned memory: a list of chunks freed together ---- */

struct snap_chunk {
  snap_chunk *next;
  size_t used, cap;
  max_align_t data[];
};

#define SNAP_CHUNK (64 * 1024)

void *snap_alloc(hfg_snapshot *s, size_t n) {
  size_t need = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
  if (need < n) goto nomem;
  snap_chunk *c = s->arena;
  if (!c || c->cap - c->used < need) {
    size_t cap = need > SNAP_CHUNK / 4 ? need : SNAP_CHUNK;
    if (cap > SIZE_MAX - sizeof *c) goto nomem;
    snap_chunk *nc = hfg_malloc(sizeof *nc + cap);
    if (!nc) goto nomem;
    nc->cap = cap;
    nc->used = 0;
    if (c && cap != SNAP_CHUNK) { /* a big block: keep filling the current chunk */
      nc->next = c->next;
      c->next = nc;
    } else {
      nc->next = c;
      s->arena = nc;
    }
    c = nc;
  }
  void *p = (char *)c->data + c->used;
  c->used += need;
  memset(p, 0, n);
  return p;
nomem:
  hfg_err_set(&s->err, HFG_ENOMEM, "out of memory");
  return NULL;
}

char *snap_strndup(hfg_snapshot *s, const void *p, size_t n) {
  char *d = snap_alloc(s, n + 1);
  if (d && n) memcpy(d, p, n);
  return d;
}

char *snap_printf(hfg_snapshot *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return NULL;
  char *d = snap_alloc(s, (size_t)n + 1);
  if (!d) return NULL;
  va_start(ap, fmt);
  vsnprintf(d, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return d;
}

const char *snap_esc(hfg_snapshot *s, const void *p, size_t n) {
  hfg_buf b = HFG_BUF_INIT;
  size_t cut = n > 200 ? 200 : n;
  const char *r = "?";
  if (!hfg_escape(&b, p, cut) && !(cut < n && hfg_buf_append(&b, "...", 3))) {
    char *d = snap_strndup(s, b.p, b.len);
    if (d) r = d;
  }
  hfg_buf_free(&b);
  return r;
}

snap_rm *snap_add_rm(hfg_snapshot *s) {
  if (s->nrm == s->caprm) {
    size_t cap = s->caprm ? s->caprm * 2 : 16;
    snap_rm *r = hfg_realloc(s->rms, cap * sizeof *r);
    if (!r) {
      hfg_err_set(&s->err, HFG_ENOMEM, "out of memory");
      return NULL;
    }
    s->rms = r;
    s->caprm = cap;
  }
  snap_rm *r = &s->rms[s->nrm++];
  memset(r, 0, sizeof *r);
  return r;
}

int snap_read_file(const char *path, uint8_t **out, size_t *len, int *err_no) {
  *out = NULL;
  *len = 0;
  *err_no = 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
    *err_no = fd < 0 || errno ? errno : 0;
    if (fd >= 0 && !*err_no) *err_no = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    if (fd >= 0) close(fd);
    return HFG_EIO;
  }
  size_t cap = (size_t)st.st_size + 1, n = 0;
  uint8_t *b = hfg_malloc(cap);
  while (b) {
    ssize_t r = read(fd, b + n, cap - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      *err_no = errno;
      close(fd);
      hfg_free(b);
      return HFG_EIO;
    }
    if (r == 0) break;
    n += (size_t)r;
    if (n == cap) { /* the file grew while read */
      uint8_t *nb = cap > SIZE_MAX / 2 ? NULL : hfg_realloc(b, cap * 2);
      if (!nb) hfg_free(b);
      b = nb;
      cap *= 2;
    }
  }
  close(fd);
  if (!b) return HFG_ENOMEM;
  *out = b;
  *len = n;
  return 0;
}

/* Reads and decodes one file with fn; a missing file is `missing_code`. */
static int load(hfg_snapshot *s, const char *path, int missing_code, const char *what,
                int (*fn)(hfg_snapshot *, const uint8_t *, size_t, const char *)) {
  uint8_t *b;
  size_t n;
  int en, rc = snap_read_file(path, &b, &n, &en);
  if (rc == HFG_ENOMEM) return hfg_err_set(&s->err, rc, "%s: out of memory", path);
  if (rc && en == ENOENT)
    return hfg_err_set(&s->err, missing_code, "%s: missing (%s)", path, what);
  if (rc) return hfg_err_set(&s->err, rc, "%s: %s", path, strerror(en));
  rc = fn(s, b, n, path);
  hfg_free(b);
  return rc;
}

static int is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}
static int exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir (not . and ..), sorted, in snapshot memory. */
static int list_dir(hfg_snapshot *s, const char *dir, char ***names, size_t *n) {
  *names = NULL;
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return hfg_err_set(&s->err, HFG_EIO, "%s: %s", dir, strerror(errno));
  size_t cap = 0;
  char **v = NULL;
  struct dirent *de;
  int rc = 0;
  while ((de = readdir(d))) {
    if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
    if (*n == cap) {
      size_t nc = cap ? cap * 2 : 32;
      char **nv = snap_alloc(s, nc * sizeof *nv);
      if (!nv) {
        rc = s->err.code;
        break;
      }
      if (*n) memcpy(nv, v, *n * sizeof *nv);
      v = nv;
      cap = nc;
    }
    if (!(v[*n] = snap_strndup(s, de->d_name, strlen(de->d_name)))) {
      rc = s->err.code;
      break;
    }
    (*n)++;
  }
  closedir(d);
  if (rc) return rc;
  if (*n > 1) qsort(v, *n, sizeof *v, cmp_str);
  *names = v;
  return 0;
}

/* ---- the schema of the v1 layout: <dir>/.tabledesc/.tableinfo.<seq>[.<len>] ---- */

/* FSTableDescriptors.getTableDescriptorFromFs: the file of the greatest name.
 * Returns 1 if dir has no .tabledesc, else 0 or an error. */
static int load_tabledesc(hfg_snapshot *s, const char *dir) {
  char *td = snap_printf(s, "%s/.tabledesc", dir);
  if (!td) return s->err.code;
  if (!is_dir(td)) return 1;
  char **names;
  size_t n;
  if (list_dir(s, td, &names, &n)) return s->err.code;
  const char *best = NULL;
  for (size_t i = 0; i < n; i++)
    if (!strncmp(names[i], ".tableinfo", 10)) best = names[i]; /* sorted: the last is greatest */
  if (!best)
    return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: no .tableinfo.* file (the table schema)", td);
  char *path = snap_printf(s, "%s/%s", td, best);
  if (!path) return s->err.code;
  uint8_t *b;
  size_t len;
  int en, rc = snap_read_file(path, &b, &len, &en);
  if (rc == HFG_ENOMEM) return hfg_err_set(&s->err, rc, "%s: out of memory", path);
  if (rc) return hfg_err_set(&s->err, rc, "%s: %s", path, strerror(en));
  /* since 2.6 the name ends in the content length: HBase reads exactly that many bytes */
  const char *d1 = strchr(best + 10 + (best[10] == '.'), '.');
  if (best[10] == '.' && d1) {
    char *e;
    unsigned long want = strtoul(d1 + 1, &e, 10);
    if (*e || want > len) {
      hfg_free(b);
      return hfg_err_set(&s->err, HFG_ECORRUPT,
                         "%s: %zu bytes, its name says %s (a truncated or half-written descriptor)",
                         path, len, d1 + 1);
    }
    len = want;
  }
  rc = snap_pb_tableinfo(s, b, len, path);
  hfg_free(b);
  return rc;
}

/* ---- region directories of the v1 layout (SnapshotManifestV1.loadRegionManifests) ---- */

static int hexname(const char *n) {
  if (!*n) return 0;
  for (; *n; n++)
    if (!((*n >= '0' && *n <= '9') || (*n >= 'a' && *n <= 'f'))) return 0;
  return 1;
}

static int load_v1_region(hfg_snapshot *s, const char *rdir, const char *dirname) {
  snap_rm *rm = snap_add_rm(s);
  if (!rm) return s->err.code;
  size_t idx = s->nrm - 1;
  char *ri = snap_printf(s, "%s/.regioninfo", rdir);
  if (!ri) return s->err.code;
  uint8_t *b;
  size_t n;
  int en, rc = snap_read_file(ri, &b, &n, &en);
  if (rc == HFG_ENOMEM) return hfg_err_set(&s->err, rc, "%s: out of memory", ri);
  if (rc)
    return hfg_err_set(&s->err, en == ENOENT ? HFG_ECORRUPT : rc, "%s: %s", ri,
                       en == ENOENT ? "missing (a v1 region directory without its RegionInfo)"
                                    : strerror(en));
  rc = snap_pb_regioninfo(s, b, n, ri, rm);
  hfg_free(b);
  if (rc) return rc;
  rm = &s->rms[idx];
  if (strcmp(rm->encoded, dirname))
    return hfg_err_set(&s->err, HFG_ECORRUPT,
                       "%s: the region it describes is %s, not its directory's name %s", ri,
                       rm->encoded, dirname);
  char **fams;
  size_t nf;
  if (list_dir(s, rdir, &fams, &nf)) return s->err.code;
  rm->fams = snap_alloc(s, (nf ? nf : 1) * sizeof *rm->fams);
  if (!rm->fams) return s->err.code;
  for (size_t i = 0; i < nf; i++) {
    char *fdir = snap_printf(s, "%s/%s", rdir, fams[i]);
    if (!fdir) return s->err.code;
    /* FSUtils.FamilyDirFilter: directories with a legal family name */
    if (!snap_legal_family((const uint8_t *)fams[i], strlen(fams[i])) || !is_dir(fdir)) continue;
    snap_ff *ff = &rm->fams[rm->nfam++];
    ff->family = fams[i];
    ff->family_len = strlen(fams[i]);
    char **files;
    size_t nfi;
    if (list_dir(s, fdir, &files, &nfi)) return s->err.code;
    ff->files = snap_alloc(s, (nfi ? nfi : 1) * sizeof *ff->files);
    if (!ff->files) return s->err.code;
    for (size_t k = 0; k < nfi; k++) {
      char *fp = snap_printf(s, "%s/%s", fdir, files[k]);
      if (!fp) return s->err.code;
      /* hidden names: Hadoop's .crc sidecars, which its local file system hides */
      if (files[k][0] == '.' || is_dir(fp)) continue;
      snap_sf *sf = &ff->files[ff->nfiles];
      if (!snap_parse_name(files[k], strlen(files[k]), &sf->parsed))
        return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: not a store-file name", fp);
      sf->name = files[k]; /* a reference's content: this file, found again at resolution */
      ff->nfiles++;
    }
  }
  return 0;
}

static int load_v1_regions(hfg_snapshot *s, char **names, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char *rdir = snap_printf(s, "%s/%s", s->info.dir, names[i]);
    if (!rdir) return s->err.code;
    if (hexname(names[i]) && is_dir(rdir) && load_v1_region(s, rdir, names[i])) return s->err.code;
  }
  return 0;
}

/* ---- finding the snapshot ---- */

static int locate(hfg_snapshot *s, const char *root, const char *name) {
  if (!snap_legal_qualifier((const uint8_t *)name, strlen(name)))
    return hfg_err_set(&s->err, HFG_EINVAL,
                       "'%s' is not a legal snapshot name (letters, digits, '_', '-', '.'; not "
                       "starting with '.' or '-')",
                       snap_esc(s, name, strlen(name)));
  if (!is_dir(root)) return hfg_err_set(&s->err, HFG_EIO, "%s: no such directory", root);
  char *dir = snap_printf(s, "%s/.hbase-snapshot/%s", root, name);
  char *tmp = snap_printf(s, "%s/.hbase-snapshot/.tmp/%s", root, name);
  char *top = snap_printf(s, "%s/.hbase-snapshot", root);
  char *old = snap_printf(s, "%s/.snapshot", root);
  char *r0 = snap_printf(s, "%s/-ROOT-", root);
  if (!dir || !tmp || !top || !old || !r0) return s->err.code;
  s->info.dir = dir;
  if (is_dir(dir)) return 0;
  if (is_dir(tmp))
    return hfg_err_set(&s->err, HFG_EUNSUPPORTED,
                       "%s: snapshot %s is still being taken or exported (only completed snapshots "
                       "are read)",
                       tmp, name);
  if (!is_dir(top) && (is_dir(old) || is_dir(r0)))
    return hfg_err_set(&s->err, HFG_EUNSUPPORTED,
                       "%s: the pre-0.96 layout (%s, no .hbase-snapshot): not supported; upgrade "
                       "the snapshot with HBase 0.96+ first",
                       root, is_dir(old) ? ".snapshot" : "-ROOT-");
  if (!is_dir(top))
    return hfg_err_set(&s->err, HFG_EIO,
                       "%s: no .hbase-snapshot directory: not an HBase root directory or "
                       "ExportSnapshot target",
                       root);
  return hfg_err_set(&s->err, HFG_EIO, "no snapshot %s: %s does not exist", name, dir);
}

static int open_snapshot(hfg_snapshot *s, const char *name) {
  if (locate(s, s->info.root, name)) return s->err.code;
  const char *dir = s->info.dir;
  s->listing = dir;
  char *p = snap_printf(s, "%s/_CORRUPTED", dir);
  if (!p) return s->err.code;
  if (exists(p))
    return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: HBase marked snapshot %s as failed", p, name);
  if (!(p = snap_printf(s, "%s/.snapshotinfo", dir))) return s->err.code;
  if (load(s, p, HFG_ECORRUPT, "the SnapshotDescription", snap_pb_description)) return s->err.code;
  s->info.table = snap_printf(s, "%s:%s", s->info.table_namespace, s->info.table_qualifier);
  if (!s->info.table) return s->err.code;
  char **names;
  size_t n;
  if (list_dir(s, dir, &names, &n)) return s->err.code;
  if (s->info.version == 2) {
    if (!(p = snap_printf(s, "%s/data.manifest", dir))) return s->err.code;
    if (exists(p)) {
      s->info.layout = HFG_SNAP_LAYOUT_V2;
      s->listing = p;
      return load(s, p, HFG_ECORRUPT, "the SnapshotDataManifest", snap_pb_data_manifest);
    }
    /* in progress when copied: the v1 region dirs and the region-manifest.* files;
     * the schema from a .tabledesc (the snapshot's, else the table's) */
    s->info.layout = HFG_SNAP_LAYOUT_V2_PARTS;
    int rc = load_tabledesc(s, dir);
    if (rc == 1) {
      char *tdir = snap_printf(s, "%s/data/%s/%s", s->info.root, s->info.table_namespace,
                               s->info.table_qualifier);
      rc = tdir ? load_tabledesc(s, tdir) : s->err.code;
      if (rc == 1)
        return hfg_err_set(&s->err, HFG_ECORRUPT,
                           "%s: no data.manifest and no table schema (no .tabledesc here nor in %s)",
                           dir, tdir);
    }
    if (rc || load_v1_regions(s, names, n)) return s->err.code;
    for (size_t i = 0; i < n; i++) {
      if (strncmp(names[i], "region-manifest.", 16)) continue;
      if (!(p = snap_printf(s, "%s/%s", dir, names[i]))) return s->err.code;
      if (load(s, p, HFG_EIO, "a region manifest", snap_pb_region_manifest)) return s->err.code;
      /* HBase writes an entry for every family of the region (SnapshotManifest.addRegion);
       * the entries are the file's last fields, so a cut between two of them still decodes */
      const snap_rm *rm = &s->rms[s->nrm - 1];
      for (size_t f = 0; f < s->nfam; f++) {
        size_t k = 0;
        while (k < rm->nfam && strcmp(rm->fams[k].family, s->fams[f].name)) k++;
        if (k == rm->nfam)
          return hfg_err_set(&s->err, HFG_ECORRUPT,
                             "%s: no entry for family %s of the table schema (HBase writes one per "
                             "family: a truncated region manifest)",
                             p, s->fams[f].name);
      }
    }
    return 0;
  }
  s->info.layout = HFG_SNAP_LAYOUT_V1;
  int rc = load_tabledesc(s, dir);
  if (rc == 1)
    return hfg_err_set(&s->err, HFG_ECORRUPT,
                       "%s/.snapshotinfo: version 0 (the v1 layout), but %s/.tabledesc (its table "
                       "schema) is missing",
                       dir, dir);
  return rc ? rc : load_v1_regions(s, names, n);
}

/* ---- the regions to read ---- */

static int cmp_rm_start(const void *a, const void *b) {
  const snap_rm *x = *(const snap_rm *const *)a, *y = *(const snap_rm *const *)b;
  return hfg_bytes_cmp(x->start, x->start_len, y->start, y->start_len);
}
static int cmp_rm_name(const void *a, const void *b) {
  return strcmp((*(const snap_rm *const *)a)->encoded, (*(const snap_rm *const *)b)->encoded);
}

static void region_of(const snap_rm *rm, hfg_snap_region *r) {
  r->encoded = rm->encoded;
  r->start_key = rm->start;
  r->start_key_len = rm->start_len;
  r->end_key = rm->end;
  r->end_key_len = rm->end_len;
  r->region_id = rm->region_id;
  r->offline = rm->offline;
  r->split = rm->split;
  r->replica_id = rm->replica_id;
  r->source = rm->source;
}

static int pick_regions(hfg_snapshot *s) {
  hfg_snap_info *in = &s->info;
  if (!s->nrm) return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: lists no region", s->listing);
  /* MobUtils.getMobRegionInfo: start key ".mob", region id 0 */
  snap_rm mob = {.tns = in->table_namespace, .tqual = in->table_qualifier,
                 .start = (const uint8_t *)".mob", .start_len = 4};
  const snap_rm **by = snap_alloc(s, s->nrm * sizeof *by);
  s->regions = snap_alloc(s, s->nrm * sizeof *s->regions);
  s->skipped = snap_alloc(s, s->nrm * sizeof *s->skipped);
  if (!by || !s->regions || !s->skipped || snap_encode_region(s, &mob)) return s->err.code;
  for (size_t i = 0; i < s->nrm; i++) by[i] = &s->rms[i];
  qsort(by, s->nrm, sizeof *by, cmp_rm_name);
  for (size_t i = 1; i < s->nrm; i++)
    if (!strcmp(by[i - 1]->encoded, by[i]->encoded))
      return hfg_err_set(&s->err, HFG_ECORRUPT, "region %s is listed twice: in %s and in %s",
                         by[i]->encoded, by[i - 1]->source, by[i]->source);
  size_t nkeep = 0;
  for (size_t i = 0; i < s->nrm; i++) {
    const snap_rm *rm = &s->rms[i];
    if (strcmp(rm->tns, in->table_namespace) || strcmp(rm->tqual, in->table_qualifier))
      return hfg_err_set(&s->err, HFG_ECORRUPT, "%s: region %s is of table %s:%s, the snapshot of %s",
                         rm->source, rm->encoded, rm->tns, rm->tqual, in->table);
    const char *why = NULL;
    if (rm->offline && rm->split)
      why = "split parent (offline and split): its daughters hold its cells";
    else if (!strcmp(rm->encoded, mob.encoded))
      why = "the MOB pseudo-region";
    else if (rm->replica_id > 0)
      why = "a read replica";
    if (why) {
      hfg_snap_region *r = &s->skipped[s->nskipped++];
      region_of(rm, r);
      r->skip_reason = why;
    } else {
      by[nkeep++] = rm;
    }
  }
  /* the kept regions by start key: each must end where the next starts */
  if (nkeep > 1) qsort(by, nkeep, sizeof *by, cmp_rm_start);
  for (size_t i = 0; i < nkeep; i++) {
    const snap_rm *r = by[i], *nx = i + 1 < nkeep ? by[i + 1] : NULL;
    const char *bad = NULL;
    if (i == 0 && r->start_len) bad = "the first region does not start at the empty key";
    else if (!nx && r->end_len) bad = "the last region does not end at the empty key";
    else if (nx && (!r->end_len || hfg_bytes_cmp(r->end, r->end_len, nx->start, nx->start_len)))
      bad = "a region does not end where the next one starts (a gap or an overlap)";
    if (bad)
      return hfg_err_set(&s->err, HFG_ECORRUPT,
                         "%s: the regions do not cover the key space once: %s (region %s [%s, %s)%s%s)",
                         s->listing, bad, r->encoded, snap_esc(s, r->start, r->start_len),
                         snap_esc(s, r->end, r->end_len), nx ? ", next region starts at " : "",
                         nx ? snap_esc(s, nx->start, nx->start_len) : "");
  }
  for (size_t i = 0; i < nkeep; i++) {
    region_of(by[i], &s->regions[i]);
    if (snap_resolve_region(s, by[i], &s->regions[i])) return s->err.code;
    s->nregions++;
  }
  return 0;
}

/* ---- a directory of family folders ---- */

static int open_dir(hfg_snapshot *s) {
  const char *root = s->info.root;
  s->info.layout = HFG_SNAP_LAYOUT_DIR;
  s->info.dir = root;
  s->info.version = s->info.type = -1;
  s->info.creation_time = s->info.ttl = s->info.max_file_size = -1;
  char **names;
  size_t n;
  if (!is_dir(root)) return hfg_err_set(&s->err, HFG_EIO, "%s: no such directory", root);
  if (list_dir(s, root, &names, &n)) return s->err.code;
  s->fams = snap_alloc(s, (n ? n : 1) * sizeof *s->fams);
  hfg_snap_store *st = snap_alloc(s, (n ? n : 1) * sizeof *st);
  s->regions = snap_alloc(s, sizeof *s->regions);
  if (!s->fams || !st || !s->regions) return s->err.code;
  for (size_t i = 0; i < n; i++) {
    char *fdir = snap_printf(s, "%s/%s", root, names[i]);
    if (!fdir) return s->err.code;
    /* LoadIncrementalHFiles.visitBulkHFiles: directories with a legal family name */
    if (!snap_legal_family((const uint8_t *)names[i], strlen(names[i])) || !is_dir(fdir)) continue;
    hfg_snap_family *f = &s->fams[s->nfam];
    f->name = names[i];
    f->name_len = strlen(names[i]);
    f->versions = f->min_versions = f->ttl = f->blocksize = f->bloom_prefix_length = -1;
    f->new_version_behavior = -1;
    char **files;
    size_t nf;
    if (list_dir(s, fdir, &files, &nf)) return s->err.code;
    hfg_snap_file *o = snap_alloc(s, (nf ? nf : 1) * sizeof *o);
    if (!o) return s->err.code;
    size_t k = 0;
    for (size_t j = 0; j < nf; j++) {
      char *fp = snap_printf(s, "%s/%s", fdir, files[j]);
      struct stat sb;
      if (!fp) return s->err.code;
      /* "_" names are skipped by bulk load; "." ones are hidden (.crc sidecars, staging) */
      if (files[j][0] == '_' || files[j][0] == '.' || stat(fp, &sb) || !S_ISREG(sb.st_mode)) continue;
      snap_name nm;
      if (snap_parse_name(files[j], strlen(files[j]), &nm) && nm.kind != HFG_SNAP_HFILE)
        return hfg_err_set(&s->err, HFG_EUNSUPPORTED,
                           "%s: an HBase %s name: a family folder holds plain HFiles (read a "
                           "table's links and references through its snapshot)",
                           fp, hfg_snap_kind_name(nm.kind));
      /* StoreFileInfo.getBulkloadSeqId: the digits after "_SeqId_" up to the next '_' */
      const char *m = strstr(files[j], "_SeqId_");
      int64_t seq = -1;
      if (m && m[7] >= '0' && m[7] <= '9') {
        char *e;
        errno = 0;
        long long v = strtoll(m + 7, &e, 10);
        if (*e == '_' && !errno) seq = v;
      }
      o[k] = (hfg_snap_file){.name = files[j], .kind = HFG_SNAP_HFILE, .path = fp,
                             .area = HFG_SNAP_AREA_DIR, .size = (uint64_t)sb.st_size,
                             .half = HFG_SNAP_WHOLE, .bulk_seq_id = seq};
      k++;
    }
    st[s->nfam].files = o;
    st[s->nfam].nfiles = k;
    s->nfam++;
  }
  if (!s->nfam)
    return hfg_err_set(&s->err, HFG_EIO,
                       "%s: no family folder (the layout is %s/<family>/<hfile>)", root, root);
  hfg_snap_region *r = &s->regions[0];
  r->encoded = "";
  r->start_key = r->end_key = (const uint8_t *)"";
  r->source = root;
  r->stores = st;
  s->nregions = 1;
  return 0;
}

/* ---- lifecycle and accessors ---- */

hfg_snapshot *snap_new(const char *root) {
  hfg_snapshot *s = hfg_calloc(1, sizeof *s);
  if (s && !(s->info.root = snap_strndup(s, root, strlen(root)))) {
    hfg_snapshot_free(s);
    return NULL;
  }
  return s;
}

int hfg_snapshot_open(const char *root, const char *snapshot, hfg_snapshot **out) {
  hfg_snapshot *s = snap_new(root ? root : "");
  *out = s;
  if (!s) return HFG_ENOMEM;
  int rc;
  if (!root || !*root) {
    rc = hfg_err_set(&s->err, HFG_EINVAL, "no root directory given");
  } else {
    rc = snapshot ? open_snapshot(s, snapshot) : open_dir(s);
    if (!rc && snapshot) rc = pick_regions(s);
  }
  if (rc && !s->err.code) hfg_err_set(&s->err, rc, "%s", hfg_strerror(rc));
  if (rc) s->nregions = s->nskipped = s->nfam = 0;
  return rc;
}

void hfg_snapshot_free(hfg_snapshot *s) {
  if (!s) return;
  for (snap_chunk *c = s->arena, *nx; c; c = nx) {
    nx = c->next;
    hfg_free(c);
  }
  hfg_free(s->rms);
  hfg_free(s);
}

const char *hfg_snapshot_errmsg(const hfg_snapshot *s) { return s ? s->err.msg : "out of memory"; }
int hfg_snapshot_errcode(const hfg_snapshot *s) { return s ? s->err.code : HFG_ENOMEM; }

const hfg_snap_info *hfg_snapshot_info(const hfg_snapshot *s) {
  return s && !s->err.code ? &s->info : NULL;
}

size_t hfg_snapshot_nfamilies(const hfg_snapshot *s) { return s ? s->nfam : 0; }
const hfg_snap_family *hfg_snapshot_family(const hfg_snapshot *s, size_t i) {
  return s && i < s->nfam ? &s->fams[i] : NULL;
}

long hfg_snapshot_family_index(const hfg_snapshot *s, const void *name, size_t len) {
  for (size_t i = 0; s && i < s->nfam; i++)
    if (s->fams[i].name_len == len && !memcmp(s->fams[i].name, name, len)) return (long)i;
  return -1;
}

size_t hfg_snapshot_nregions(const hfg_snapshot *s) { return s ? s->nregions : 0; }
const hfg_snap_region *hfg_snapshot_region(const hfg_snapshot *s, size_t i) {
  return s && i < s->nregions ? &s->regions[i] : NULL;
}
size_t hfg_snapshot_nskipped(const hfg_snapshot *s) { return s ? s->nskipped : 0; }
const hfg_snap_region *hfg_snapshot_skipped(const hfg_snapshot *s, size_t i) {
  return s && i < s->nskipped ? &s->skipped[i] : NULL;
}
