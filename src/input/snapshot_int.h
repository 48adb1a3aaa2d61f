/*
 * Internals of the snapshot reader (snapshot.h), shared by its three files:
 *   snapshot.c        open: finding the snapshot, the layouts, regions, accessors
 *   snapshot_pb.c     decoding .snapshotinfo, manifests, .regioninfo, .tableinfo
 *                     and the schema (protobuf-c over format-specs/snapshot.proto)
 *   snapshot_files.c  store-file names, reference files, resolution to real paths
 * and by the tests and the fuzz target, which drive the parsers directly.
 */
#ifndef HFG_INPUT_SNAPSHOT_INT_H
#define HFG_INPUT_SNAPSHOT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "input/snapshot.h"
#include "util/buf.h"
#include "util/err.h"

struct ProtobufCAllocator;

/* ---- store-file names (StoreFileInfo, HFileLink) ---- */

typedef struct snap_name {
  hfg_snap_kind kind;
  /* pieces of the name, as offsets into it (len 0 = absent) */
  size_t ns_off, ns_len;          /* link: namespace, absent = "default" */
  size_t qual_off, qual_len;      /* link: table qualifier */
  size_t region_off, region_len;  /* link: encoded region */
  size_t hfile_off, hfile_len;    /* the hfile part (always present) */
  size_t parent_off, parent_len;  /* reference: the parent region */
  int64_t bulk_seq_id;            /* "_SeqId_<n>_" of the hfile part, else -1 */
} snap_name;

/* Parses name[0..len) by the grammars of format-specs/snapshot.md ("Store-file
 * names"). Returns 1 and fills *out for a store-file name, 0 otherwise. */
int snap_parse_name(const char *name, size_t len, snap_name *out);

/* The namespace, table qualifier, family and snapshot name rules of HBase
 * (TableName.isLegal*, ColumnFamilyDescriptorBuilder.isLegalColumnFamilyName);
 * 1 if legal. They also keep every name path-safe (no '/', NUL, "." or ".."). */
int snap_legal_namespace(const uint8_t *p, size_t n);
int snap_legal_qualifier(const uint8_t *p, size_t n);
int snap_legal_family(const uint8_t *p, size_t n);

/* ---- references (Reference.read) ---- */

/* Decodes a reference file's bytes: "PBUF" + FSProtos.Reference, or the legacy
 * Writable (boolean top + Hadoop vint length + key). On success returns 0,
 * sets *half and appends the split key to *key. Otherwise HFG_ECORRUPT (or
 * HFG_ENOMEM) with the reason in why. */
int snap_parse_reference(const uint8_t *p, size_t n, hfg_snap_half *half, hfg_buf *key, char *why,
                         size_t whycap);
/* A split key must be KeyValueUtil.createFirstOnRow(row).getKey(): returns 0
 * and the row, or HFG_ECORRUPT with the reason in why. */
int snap_split_row(const uint8_t *key, size_t n, const uint8_t **row, size_t *row_len, char *why,
                   size_t whycap);

/* ---- what the manifests list, before resolution ---- */

typedef struct snap_sf {
  const char *name;          /* validated: snap_parse_name accepted it */
  snap_name parsed;
  int has_ref;               /* reference content known (v2 manifest) */
  hfg_snap_half half;
  const uint8_t *splitkey;
  size_t splitkey_len;
  int has_size;
  uint64_t size;
} snap_sf;

typedef struct snap_ff {
  const char *family;        /* validated family name */
  size_t family_len;
  size_t nfiles;
  snap_sf *files;
} snap_ff;

typedef struct snap_rm {
  char encoded[33];
  const char *tns, *tqual;   /* the region's table */
  const uint8_t *start, *end;
  size_t start_len, end_len;
  uint64_t region_id;
  int offline, split;
  int32_t replica_id;
  const char *source;
  size_t nfam;
  snap_ff *fams;
} snap_rm;

/* ---- the snapshot object ---- */

typedef struct snap_chunk snap_chunk;

struct hfg_snapshot {
  hfg_err err;
  snap_chunk *arena;
  hfg_snap_info info;
  const char *listing;  /* what lists the regions: data.manifest, or the snapshot directory */
  int has_schema;
  size_t nfam;
  hfg_snap_family *fams;
  /* region manifests as listed (a growing array) */
  size_t nrm, caprm;
  snap_rm *rms;
  /* results */
  size_t nregions, nskipped;
  hfg_snap_region *regions, *skipped;
};

/* An empty snapshot object for the parsers alone (tests, fuzzing); NULL if
 * out of memory. Free it with hfg_snapshot_free. */
hfg_snapshot *snap_new(const char *root);

/* Zeroed memory owned by s (freed by hfg_snapshot_free), or NULL with
 * HFG_ENOMEM set in s->err. */
void *snap_alloc(hfg_snapshot *s, size_t n);
char *snap_strndup(hfg_snapshot *s, const void *p, size_t n);
/* printf into snapshot-owned memory */
char *snap_printf(hfg_snapshot *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A new zeroed region manifest appended to s->rms, or NULL (ENOMEM set). */
snap_rm *snap_add_rm(hfg_snapshot *s);
/* The escaped form of p[0..n) for messages (at most ~200 bytes, "..." after). */
const char *snap_esc(hfg_snapshot *s, const void *p, size_t n);

/* Reads a whole file into a buffer the caller frees with hfg_free. Returns 0,
 * HFG_EIO (errno kept in *err_no; ENOENT for a missing file) or HFG_ENOMEM. */
int snap_read_file(const char *path, uint8_t **out, size_t *len, int *err_no);

/* ---- snapshot_pb.c ---- */

/* A protobuf-c allocator through util/alloc.h raising *nomem on a failure. */
void snap_pb_allocator(struct ProtobufCAllocator *a, int *nomem);

/* Each decodes the bytes of the file named `file` (for messages) into s. */
int snap_pb_description(hfg_snapshot *s, const uint8_t *p, size_t n, const char *file);
int snap_pb_data_manifest(hfg_snapshot *s, const uint8_t *p, size_t n, const char *file);
int snap_pb_region_manifest(hfg_snapshot *s, const uint8_t *p, size_t n, const char *file);
/* rm->encoded from rm's table, start key, region id and replica id (RegionInfo.encodeRegionName) */
int snap_encode_region(hfg_snapshot *s, snap_rm *rm);
/* .regioninfo: "PBUF" + varint length + RegionInfo, into rm */
int snap_pb_regioninfo(hfg_snapshot *s, const uint8_t *p, size_t n, const char *file,
                       snap_rm *rm);
/* .tableinfo.*: "PBUF" + TableSchema (the schema of the v1 layout) */
int snap_pb_tableinfo(hfg_snapshot *s, const uint8_t *p, size_t n, const char *file);

/* ---- snapshot_files.c ---- */

/* Resolves every store file of rm into out->stores. */
int snap_resolve_region(hfg_snapshot *s, const snap_rm *rm, hfg_snap_region *out);

#endif
