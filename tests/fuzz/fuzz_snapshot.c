/*
 * Fuzz target: the snapshot reader's parsers (src/input/snapshot_int.h).
 * Byte 0 picks the parser, the rest is the file:
 *   0 data.manifest   1 region-manifest.*   2 .snapshotinfo   3 .regioninfo
 *   4 .tableinfo.*    5 a reference file     6 a store-file name
 * (any other value: each in turn). Checks: a failure carries a message; what
 * decodes obeys the rules the resolution relies on: region names are 32
 * lowercase hex, family names are legal (no '/', not "." or ".."), store-file
 * names re-parse to the same pieces, a name's pieces lie inside it and
 * rebuild it, split keys are first-on-row with the row inside the key,
 * families are sorted and distinct.
 */
#include <string.h>

#include "fuzz.h"
#include "input/snapshot_int.h"
#include "util/buf.h"
#include "util/coding.h"

static void check_name(const char *name, size_t len, const snap_name *n) {
  FZ_ASSERT(n->hfile_len > 0 && n->hfile_off + n->hfile_len <= len);
  FZ_ASSERT(n->ns_off + n->ns_len <= len && n->qual_off + n->qual_len <= len);
  FZ_ASSERT(n->region_off + n->region_len <= len && n->parent_off + n->parent_len <= len);
  int link = n->kind == HFG_SNAP_LINK || n->kind == HFG_SNAP_LINK_REF;
  int ref = n->kind == HFG_SNAP_REF || n->kind == HFG_SNAP_LINK_REF;
  FZ_ASSERT(link == (n->qual_len > 0) && link == (n->region_len > 0) && ref == (n->parent_len > 0));
  /* [ns=]qualifier=region-hfile[.parent] rebuilt from the pieces */
  char b[4096];
  size_t k = 0;
  if (len + 8 > sizeof b) return;
  if (n->ns_len) k += (size_t)snprintf(b + k, sizeof b - k, "%.*s=", (int)n->ns_len, name + n->ns_off);
  if (link)
    k += (size_t)snprintf(b + k, sizeof b - k, "%.*s=%.*s-", (int)n->qual_len, name + n->qual_off,
                          (int)n->region_len, name + n->region_off);
  k += (size_t)snprintf(b + k, sizeof b - k, "%.*s", (int)n->hfile_len, name + n->hfile_off);
  if (ref)
    k += (size_t)snprintf(b + k, sizeof b - k, ".%.*s", (int)n->parent_len, name + n->parent_off);
  FZ_ASSERT(k == len && memcmp(b, name, len) == 0);
  FZ_ASSERT(!memchr(name, '/', len) && !memchr(name, 0, len));
}

static void check_regions(const hfg_snapshot *s) {
  for (size_t i = 0; i < s->nrm; i++) {
    const snap_rm *rm = &s->rms[i];
    FZ_ASSERT(strlen(rm->encoded) == 32);
    for (int k = 0; k < 32; k++)
      FZ_ASSERT((rm->encoded[k] >= '0' && rm->encoded[k] <= '9') ||
                (rm->encoded[k] >= 'a' && rm->encoded[k] <= 'f'));
    FZ_ASSERT(snap_legal_namespace((const uint8_t *)rm->tns, strlen(rm->tns)));
    FZ_ASSERT(snap_legal_qualifier((const uint8_t *)rm->tqual, strlen(rm->tqual)));
    for (size_t f = 0; f < rm->nfam; f++) {
      const snap_ff *ff = &rm->fams[f];
      FZ_ASSERT(snap_legal_family((const uint8_t *)ff->family, ff->family_len));
      FZ_ASSERT(strcmp(ff->family, ".") && strcmp(ff->family, "..") && !strchr(ff->family, '/'));
      for (size_t j = 0; j < ff->nfiles; j++) {
        const snap_sf *sf = &ff->files[j];
        snap_name again;
        FZ_ASSERT(snap_parse_name(sf->name, strlen(sf->name), &again));
        FZ_ASSERT(memcmp(&again, &sf->parsed, sizeof again) == 0);
        check_name(sf->name, strlen(sf->name), &sf->parsed);
        if (sf->has_ref) FZ_ASSERT(sf->half == HFG_SNAP_TOP || sf->half == HFG_SNAP_BOTTOM);
      }
    }
  }
}

static void check_schema(const hfg_snapshot *s) {
  for (size_t i = 0; i < s->nfam; i++) {
    const hfg_snap_family *f = &s->fams[i];
    FZ_ASSERT(snap_legal_family((const uint8_t *)f->name, f->name_len));
    FZ_ASSERT(f->compression && f->bloomfilter && f->data_block_encoding && f->keep_deleted_cells);
    if (i) FZ_ASSERT(hfg_bytes_cmp((const uint8_t *)s->fams[i - 1].name, s->fams[i - 1].name_len,
                                   (const uint8_t *)f->name, f->name_len) < 0);
  }
}

static void run(int which, const uint8_t *p, size_t n) {
  if (which == 6) {
    snap_name nm;
    if (snap_parse_name((const char *)p, n, &nm)) check_name((const char *)p, n, &nm);
    return;
  }
  if (which == 5) {
    hfg_buf k = HFG_BUF_INIT;
    char why[256] = "";
    hfg_snap_half h;
    int rc = snap_parse_reference(p, n, &h, &k, why, sizeof why);
    if (rc) {
      FZ_ASSERT(rc < 0 && why[0]);
    } else {
      FZ_ASSERT(h == HFG_SNAP_TOP || h == HFG_SNAP_BOTTOM);
      FZ_ASSERT(k.len <= n);
      const uint8_t *row;
      size_t rl;
      why[0] = 0;
      if (snap_split_row(k.p, k.len, &row, &rl, why, sizeof why) == 0)
        FZ_ASSERT(rl + 12 == k.len && row == k.p + 2);
      else
        FZ_ASSERT(why[0]);
    }
    hfg_buf_free(&k);
    return;
  }
  hfg_snapshot *s = snap_new("/nonexistent");
  if (!s) return;
  int rc;
  snap_rm *rm;
  switch (which) {
    case 0: rc = snap_pb_data_manifest(s, p, n, "data.manifest"); break;
    case 1: rc = snap_pb_region_manifest(s, p, n, "region-manifest.x"); break;
    case 2: rc = snap_pb_description(s, p, n, ".snapshotinfo"); break;
    case 3:
      rm = snap_add_rm(s);
      rc = rm ? snap_pb_regioninfo(s, p, n, ".regioninfo", rm) : s->err.code;
      break;
    default: rc = snap_pb_tableinfo(s, p, n, ".tableinfo"); break;
  }
  if (rc) {
    FZ_ASSERT(rc < 0 && s->err.code == rc && s->err.msg[0]);
  } else {
    check_regions(s);
    check_schema(s);
    if (which == 2) FZ_ASSERT(s->info.name && s->info.table_namespace && s->info.table_qualifier);
  }
  hfg_snapshot_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  int which = data[0];
  if (which <= 6) {
    run(which, data + 1, size - 1);
  } else {
    for (int w = 0; w <= 6; w++) run(w, data + 1, size - 1);
  }
  return 0;
}
