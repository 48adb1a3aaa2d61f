/*
 * A small read-only HBase client: what a bulk load needs to know about a live
 * table, with no JVM (format-specs/hbase-rpc.md).
 *
 *   regions  from hbase:meta, found through ZooKeeper's meta-region-server znode;
 *            split parents are left out and replicas are never listed, as
 *            RegionLocator does; the state row tells a disabled table
 *   schema   from the active master (znode "master"), MasterService.GetTableDescriptors:
 *            per family COMPRESSION, BLOOMFILTER (and its prefix length),
 *            BLOCKSIZE, DATA_BLOCK_ENCODING; the table's MAX_FILESIZE
 *
 * It speaks HBase RPC with SIMPLE authentication over plain TCP only; it refuses
 * SASL/Kerberos and TLS clusters with a clear message (the caller refuses them
 * up front when hbase-site.xml says so). Every network step has a deadline;
 * lookups are retried a bounded number of times (meta moved, region server
 * restarting, a split in progress), so a call returns within about
 * attempts x (3 x timeout_ms) even when nothing answers.
 *
 *   c = hfg_hbase_new(&opts)  (hfg_hbase_regions | hfg_hbase_schema)*  hfg_hbase_free(c)
 *
 * Calls return 0 or a negative HFG_E* code with the detail in hfg_hbase_errmsg(c):
 *   HFG_EIO           ZooKeeper or a server unreachable / silent (after the retries)
 *   HFG_EINVAL        no such table (HBase's TableNotFoundException or no rows in meta)
 *   HFG_ESTATE        the table is disabled (or being disabled/enabled)
 *   HFG_EUNSUPPORTED  the cluster wants SASL/Kerberos or TLS
 *   HFG_ECORRUPT      a malformed answer
 * The library never prints and never reads the environment.
 */
#ifndef HFILEGEN_HBASE_H
#define HFILEGEN_HBASE_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/types.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

#define HFG_HBASE_OPTIONS_VERSION 1

typedef struct hfg_hbase_options {
  unsigned version;          /* HFG_HBASE_OPTIONS_VERSION */
  const char *quorum;        /* "host[:port][,host[:port]...]" (required) */
  unsigned client_port;      /* port of hosts given without one (default 2181) */
  const char *znode_parent;  /* zookeeper.znode.parent (default "/hbase") */
  int timeout_ms;            /* per network step (default 10000) */
  int attempts;              /* tries per lookup on a retriable failure (default 4) */
  const char *user;          /* effective user in the ConnectionHeader (default "hfilegen") */
  const char *dump_dir;      /* tests: write every znode and response frame here */
} hfg_hbase_options;

#define HFG_HBASE_OPTIONS_INIT {HFG_HBASE_OPTIONS_VERSION, NULL, 2181, "/hbase", 10000, 4, \
                                "hfilegen", NULL}

typedef struct hfg_hbase_region {
  uint8_t *start;            /* start key, empty for the first region */
  size_t start_len;
  uint8_t *end;              /* end key, empty for the last region */
  size_t end_len;
  uint64_t region_id;        /* RegionInfo.region_id (creation time in ms) */
} hfg_hbase_region;

typedef struct hfg_hbase_family {
  char *name;
  char *compression;         /* COMPRESSION as HBase names it ("NONE" when unset) */
  char *bloom;               /* BLOOMFILTER ("ROW" when unset: HBase's default) */
  char *encoding;            /* DATA_BLOCK_ENCODING ("NONE" when unset) */
  uint32_t block_size;       /* BLOCKSIZE (65536 when unset) */
  char *bloom_prefix_length; /* RowPrefixBloomFilter.prefix_length, or NULL */
  char *zstd_codec;          /* family configuration hbase.io.compress.zstd.codec, or NULL */
} hfg_hbase_family;

typedef struct hfg_hbase_table {
  char *name;                /* as given */
  /* hfg_hbase_regions: sorted by start key, tiling the key space */
  hfg_hbase_region *regions;
  size_t nregions;
  size_t skipped_split_parents;
  char meta_server[300];     /* "host:port" that served hbase:meta */
  /* hfg_hbase_schema */
  int has_schema;
  uint64_t max_file_size;    /* MAX_FILESIZE, 0 when the table does not set it */
  hfg_hbase_family *families;
  size_t nfamilies;
  char master[300];          /* "host:port" of the master that answered */
} hfg_hbase_table;

typedef struct hfg_hbase hfg_hbase;

/* NULL when out of memory or o->version is wrong. Connects lazily. Options are copied. */
hfg_hbase *hfg_hbase_new(const hfg_hbase_options *o);

/* Fills t->regions (and t->name) for `table` ("name" or "namespace:name"). */
int hfg_hbase_regions(hfg_hbase *c, const char *table, hfg_hbase_table *t);

/* Fills t->families and t->max_file_size from the master. */
int hfg_hbase_schema(hfg_hbase *c, const char *table, hfg_hbase_table *t);

/* The last failure, "" after success. Valid until the next call. */
const char *hfg_hbase_errmsg(const hfg_hbase *c);

void hfg_hbase_free(hfg_hbase *c);

/* Frees what the lookups put in t and zeroes it; a zeroed t is valid to free. */
void hfg_hbase_table_free(hfg_hbase_table *t);

/* Region index of a row in t->regions (binary search on start keys). */
size_t hfg_hbase_region_of(const hfg_hbase_table *t, const uint8_t *row, size_t len);

/* A family's DATA_BLOCK_ENCODING as the encoding hfilegen writes, as
 * HFileOutputFormat2 takes it for the bulk-load files (the master stores
 * DataBlockEncoding's enum names; compared without case).
 * 0, or HFG_EUNSUPPORTED for an encoding hfilegen does not write: PREFIX_TREE
 * (id 6: HBase 1.x's, removed in 2.0) or a name no HBase release defines. */
int hfg_hbase_family_encoding(const hfg_hbase_family *f, hfg_encoding *out);

/* ---- hbase-site.xml ---- */

/* The settings of an hbase-site.xml the client needs; unset strings are "". */
typedef struct hfg_hbase_site {
  char quorum[2048];          /* hbase.zookeeper.quorum */
  unsigned client_port;       /* hbase.zookeeper.property.clientPort, 0 when unset */
  char znode_parent[512];     /* zookeeper.znode.parent */
  char authentication[64];    /* hbase.security.authentication ("simple", "kerberos") */
  char rpc_protection[64];    /* hbase.rpc.protection ("authentication", "privacy", ...) */
  int tls_enabled;            /* hbase.rpc.tls.enabled or hbase.client.netty.tls.enabled true */
  char zstd_codec[256];       /* hbase.io.compress.zstd.codec */
  uint64_t max_file_size;     /* hbase.hregion.max.filesize, 0 when unset */
} hfg_hbase_site;

/* Reads <configuration><property><name>N</name><value>V</value></property>...
 * (Hadoop's Configuration format) with expat. 0, or -1 with the reason (file and
 * line) in err. A value using ${...} substitution is refused for the keys above. */
int hfg_hbase_site_load(const char *path, hfg_hbase_site *out, char *err, size_t err_cap);

/* Why the client cannot talk to a cluster so configured (Kerberos/SASL, TLS), or NULL. */
const char *hfg_hbase_site_unsupported(const hfg_hbase_site *s);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
