/*
 * Snapshot reader (issue #26): the table, schema, regions and store files of an
 * HBase table snapshot, read offline from an HBase root directory or from an
 * `ExportSnapshot -copy-to` target (format-specs/snapshot.md), so that a job can
 * read every cell of the table from its HFiles without a cluster.
 *
 * What open does, in order (each step's refusal names the file and the reason):
 *  1. finds ROOT/.hbase-snapshot/NAME (a missing snapshot, one still in progress
 *     under .hbase-snapshot/.tmp/, one marked _CORRUPTED and the pre-0.96 layout
 *     (/hbase/.snapshot) are refused);
 *  2. decodes .snapshotinfo, then the manifest as HBase's SnapshotManifest.load
 *     does: version 2 with data.manifest -> that file only; version 2 without
 *     it -> the union of the v1 region directories and the region-manifest.*
 *     files; version 0 -> the v1 layout (.tabledesc/.tableinfo.* plus region
 *     directories holding .regioninfo and family folders of name files);
 *  3. takes the schema; refuses MOB families (IS_MOB=true) and encrypted ones
 *     (an ENCRYPTION attribute);
 *  4. skips the regions HBase's snapshot readers skip (split parents: offline
 *     and split; the MOB pseudo-region; read replicas), sorts the others by
 *     start key and refuses a set of regions that does not tile the key space;
 *  5. resolves every store file of the kept regions to the real HFile: a
 *     plain name, an HFileLink ([ns=]table=region-hfile), a reference
 *     (hfile.parentRegion) or a reference to a link, each looked up in
 *     ROOT/data/, ROOT/archive/data/, ROOT/.tmp/data/, ROOT/mobdir/data/ in
 *     that order; decodes each reference (from the manifest, or the reference
 *     file: PBUF + FSProtos.Reference, or the legacy Writable) into its half
 *     and split row; checks the manifest's file size against the file found.
 * Everything is read once at open; nothing is printed. All decoding is bounded
 * by the bytes read: hostile files give an error, never a crash.
 *
 * With snapshot == NULL, ROOT is instead a directory of family folders of
 * plain HFiles (ROOT/<family>/<file>, what `hfilegen build` or
 * HFileOutputFormat2 write): one pseudo-region covering every row, families
 * from the folder names, every setting unknown (strings NULL, numbers -1).
 *
 * Lifecycle: hfg_snapshot_open ... accessors ... hfg_snapshot_free. Every
 * pointer an accessor returns is owned by the snapshot and stays valid until
 * hfg_snapshot_free. A snapshot is immutable after open (threads may share it).
 */
#ifndef HFG_INPUT_SNAPSHOT_H
#define HFG_INPUT_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/status.h"

typedef struct hfg_snapshot hfg_snapshot;

/* Where the snapshot's description came from. */
typedef enum hfg_snap_layout {
  HFG_SNAP_LAYOUT_V2 = 2,   /* .snapshotinfo version 2 + data.manifest */
  HFG_SNAP_LAYOUT_V2_PARTS, /* version 2, no data.manifest: region-manifest.* and region dirs */
  HFG_SNAP_LAYOUT_V1,       /* version 0: .tabledesc + region directories */
  HFG_SNAP_LAYOUT_DIR       /* no snapshot: a directory of family folders */
} hfg_snap_layout;

/* What a store-file name is (StoreFileInfo / HFileLink name grammars). */
typedef enum hfg_snap_kind {
  HFG_SNAP_HFILE = 0,   /* <hfile>: a file of this region */
  HFG_SNAP_LINK,        /* [ns=]table=region-<hfile>: a file of another region or table */
  HFG_SNAP_REF,         /* <hfile>.<parent>: half of a file of the parent region */
  HFG_SNAP_LINK_REF     /* [ns=]table=region-<hfile>.<parent>: half of a linked file */
} hfg_snap_kind;

/* Which cells of the real file belong to the store file. */
typedef enum hfg_snap_half {
  HFG_SNAP_WHOLE = 0,   /* every cell */
  HFG_SNAP_TOP,         /* rows >= split_row (the split row belongs to the top half) */
  HFG_SNAP_BOTTOM       /* rows <  split_row */
} hfg_snap_half;

/* The directory the real file was found under. */
typedef enum hfg_snap_area {
  HFG_SNAP_AREA_DATA = 0, /* ROOT/data/ */
  HFG_SNAP_AREA_ARCHIVE,  /* ROOT/archive/data/ */
  HFG_SNAP_AREA_TMP,      /* ROOT/.tmp/data/ */
  HFG_SNAP_AREA_MOB,      /* ROOT/mobdir/data/ */
  HFG_SNAP_AREA_DIR       /* the family folder itself (snapshot == NULL) */
} hfg_snap_area;

/* One attribute or configuration entry of a descriptor, as stored. Keys and
 * values are NUL-terminated; *_len exclude the NUL (values may hold NULs). */
typedef struct hfg_snap_kv {
  const char *key;
  size_t key_len;
  const char *value;
  size_t value_len;
} hfg_snap_kv;

/* A column family. The settings are the values HBase would use: the
 * descriptor's, parsed as its getters parse them (Integer.parseInt; enum names
 * in any case), or HBase's default where it lacks the key (the defaults of
 * ColumnFamilyDescriptorBuilder); what a number means is the caller's (TTL
 * 2147483647 and -1 are "forever", HStore.determineTTLFromFamily). Unknown
 * (snapshot == NULL): NULL and -1. */
typedef struct hfg_snap_family {
  const char *name;                 /* NUL-terminated; never holds a NUL or '/' */
  size_t name_len;
  int32_t versions;                 /* VERSIONS, default 1 */
  int32_t min_versions;             /* MIN_VERSIONS, default 0 */
  int32_t ttl;                      /* TTL in seconds, default 2147483647 (FOREVER) */
  int32_t blocksize;                /* BLOCKSIZE, default 65536 */
  int new_version_behavior;         /* NEW_VERSION_BEHAVIOR: 1 "true" (any case), else 0 */
  const char *keep_deleted_cells;   /* "FALSE" (default), "TRUE", "TTL" */
  const char *compression;          /* COMPRESSION upper-cased: "NONE" (default), "GZ", "SNAPPY",
                                       "LZ4", "ZSTD", "LZO", "BZIP2", "LZMA", "BROTLI" */
  const char *bloomfilter;          /* "NONE", "ROW" (default), "ROWCOL", "ROWPREFIX_FIXED_LENGTH" */
  int32_t bloom_prefix_length;      /* configuration RowPrefixBloomFilter.prefix_length, -1 unset */
  const char *data_block_encoding;  /* "NONE" (default), "PREFIX", "DIFF", "FAST_DIFF", "ROW_INDEX_V1" */
  /* the descriptor as stored: attributes (BytesBytesPair) and configuration
   * (NameStringPair); a key given twice keeps its last value, as HBase does */
  size_t nattrs;
  const hfg_snap_kv *attrs;
  size_t nconf;
  const hfg_snap_kv *conf;
} hfg_snap_family;

/* One store file of a region's family, resolved. */
typedef struct hfg_snap_file {
  const char *name;            /* the name as the manifest / directory lists it */
  hfg_snap_kind kind;
  const char *path;            /* the real HFile: ROOT/<area>/<ns>/<table>/<region>/<family>/<hfile> */
  hfg_snap_area area;
  uint64_t size;               /* bytes of path when open looked (== the manifest's size if given) */
  /* the file whose bytes path holds: table "ns:qualifier", encoded region, hfile name
   * (for HFILE and REF the region is this region resp. the parent); NULL in DIR mode */
  const char *ref_table;
  const char *ref_region;
  const char *ref_hfile;
  hfg_snap_half half;          /* WHOLE unless kind is REF or LINK_REF */
  const uint8_t *split_row;    /* the row of the reference's split key (firstOnRow(row)); */
  size_t split_row_len;        /*   NULL/0 for WHOLE; may be empty (a merge of the first region) */
  int64_t bulk_seq_id;         /* n of a bulk-loaded file's "_SeqId_<n>_" in its name, else -1 */
} hfg_snap_file;

/* A region's files of one family. */
typedef struct hfg_snap_store {
  size_t nfiles;
  const hfg_snap_file *files;  /* in the manifest's order (sorted by name for directories) */
} hfg_snap_store;

typedef struct hfg_snap_region {
  const char *encoded;         /* 32 lowercase hex: the region's directory name ("" in DIR mode) */
  const uint8_t *start_key;    /* empty = the first region */
  size_t start_key_len;
  const uint8_t *end_key;      /* empty = the last region */
  size_t end_key_len;
  uint64_t region_id;          /* creation time in ms (part of the region name) */
  int offline;
  int split;
  int32_t replica_id;
  const char *source;          /* the file that listed the region (data.manifest, ...) */
  const char *skip_reason;     /* NULL for a region to read; else why it is skipped */
  /* hfg_snapshot_nfamilies() entries, store[i] for family i; NULL for a skipped region */
  const hfg_snap_store *stores;
} hfg_snap_region;

/* Snapshot-wide facts. Strings NULL and numbers -1 when unknown (DIR mode). */
typedef struct hfg_snap_info {
  hfg_snap_layout layout;
  const char *root;            /* as given to open */
  const char *dir;             /* ROOT/.hbase-snapshot/NAME (ROOT in DIR mode) */
  const char *name;            /* the snapshot's name (.snapshotinfo) */
  const char *table;           /* "ns:qualifier", the namespace always spelled ("default:t") */
  const char *table_namespace;
  const char *table_qualifier;
  int32_t version;             /* .snapshotinfo version: 0 or 2 */
  int64_t creation_time;       /* ms */
  int32_t type;                /* 0 DISABLED, 1 FLUSH, 2 SKIPFLUSH */
  int64_t ttl;                 /* snapshot TTL, seconds (0 = none) */
  int64_t max_file_size;       /* the table's MAX_FILESIZE attribute, -1 if absent */
  /* the table descriptor as stored (attributes; configuration entries, which
   * HBase folds into the table's values, follow them) */
  size_t nattrs;
  const hfg_snap_kv *attrs;
} hfg_snap_info;

/* Opens snapshot `snapshot` under the HBase root (or export target) `root`;
 * snapshot == NULL reads `root` as a directory of family folders. Returns 0 or
 * a negative HFG_E* code: HFG_EIO (no such root or snapshot, a file that
 * cannot be read), HFG_ECORRUPT (a file of the snapshot missing, bytes that do
 * not decode, a store file found nowhere, sizes that differ, regions that do
 * not tile), HFG_EUNSUPPORTED (MOB, encryption, the pre-0.96 layout, an
 * in-progress snapshot), HFG_EINVAL (a snapshot name HBase would refuse),
 * HFG_ENOMEM. On failure *out still receives a snapshot holding the message
 * (read it with hfg_snapshot_errmsg, then free it) unless even that could not
 * be allocated: then *out is NULL and HFG_ENOMEM is returned. Every accessor
 * on a failed snapshot returns its empty value (0, NULL). */
int hfg_snapshot_open(const char *root, const char *snapshot, hfg_snapshot **out);
/* Frees everything; NULL is a no-op. */
void hfg_snapshot_free(hfg_snapshot *s);

/* The error of a failed open ("" if none) and its code (0 if none). */
const char *hfg_snapshot_errmsg(const hfg_snapshot *s);
int hfg_snapshot_errcode(const hfg_snapshot *s);

const hfg_snap_info *hfg_snapshot_info(const hfg_snapshot *s);

/* Families, sorted by name (the order of HBase's TableDescriptor). */
size_t hfg_snapshot_nfamilies(const hfg_snapshot *s);
const hfg_snap_family *hfg_snapshot_family(const hfg_snapshot *s, size_t i);
/* The index of the family named name[0..len), or -1. */
long hfg_snapshot_family_index(const hfg_snapshot *s, const void *name, size_t len);
/* The last value stored for key among f's attributes, then configuration; NULL if none
 * (an empty value counts as none: HBase's setValue removes the key). */
const char *hfg_snap_family_attr(const hfg_snap_family *f, const char *key);

/* The regions to read, sorted by start key: together they cover every row once. */
size_t hfg_snapshot_nregions(const hfg_snapshot *s);
const hfg_snap_region *hfg_snapshot_region(const hfg_snapshot *s, size_t i);
/* The regions listed but not read (split parents, ...), in listing order,
 * each with its skip_reason. */
size_t hfg_snapshot_nskipped(const hfg_snapshot *s);
const hfg_snap_region *hfg_snapshot_skipped(const hfg_snapshot *s, size_t i);

/* Short names for messages: "hfile", "link", "reference", "link reference";
 * "top", "bottom", "whole"; "data", "archive", ".tmp", "mobdir", "dir". */
const char *hfg_snap_kind_name(hfg_snap_kind k);
const char *hfg_snap_half_name(hfg_snap_half h);
const char *hfg_snap_area_name(hfg_snap_area a);

#endif
