/*
 * The live-table flags shared by build, splits, plan and verify, and the lookup
 * they trigger (include/hfilegen/hbase.h):
 *
 *   --table NAME            the table ([namespace:]name)
 *   --zookeeper Q           host[:port][,host[:port]...]  (else hbase-site.xml's quorum)
 *   --znode-parent P        default /hbase (or hbase-site.xml's zookeeper.znode.parent)
 *   --hbase-site FILE       an hbase-site.xml; without it $HBASE_CONF_DIR/hbase-site.xml
 *                           is read when it exists
 *   --hbase-timeout MS      per network step (default 10000)
 *   --hbase-dump DIR        write the raw znodes and RPC answers there (debugging, tests)
 */
#ifndef HFG_CLI_HBASE_H
#define HFG_CLI_HBASE_H

#include "hfilegen/hbase.h"

typedef struct cli_hbase_args {
  const char *table, *zookeeper, *znode_parent, *hbase_site, *dump_dir;
  int timeout_ms;
  /* after cli_hbase_fetch: */
  hfg_hbase_site site;
  int have_site;
  char site_path[4096];
  char source[1024];   /* "table t (hbase:meta on host:port, ZooKeeper q)" */
  int table_from_job;  /* table came from a job file's `table:` key, not --table */
} cli_hbase_args;

/* Consumes argv[*i] (and its value) when it is one of the flags above; --table only
 * when take_table. 1 consumed, 0 not ours, -1 bad or missing value (printed). */
int cli_hbase_flag(cli_hbase_args *a, int argc, char **argv, int *i, int take_table,
                   const char *cmd);

/* A job file's live-table keys (table, zookeeper, znode_parent, hbase_site,
 * hbase_timeout, hbase_dump) into the cli_hbase_args `ctx`: a cli_job_key_fn
 * (cli/opts.h). */
int cli_hbase_job_key(void *ctx, const char *flag, const char *value);

/* A job file's `table:` against a command-line --splits, or a job file's
 * `splits:` against a command-line --table: the command line wins (flags override
 * the job file), and a note says which was replaced. When both come from the same
 * place they are left for the command's "exclude each other" error. */
void cli_hbase_job_precedence(cli_hbase_args *a, const char **splits_file, int argc,
                              char **argv, const char *cmd);

/* 1 when `flag` is one of the flags above (including --table), which take a value. */
int cli_hbase_flag_takes_value(const char *flag);

/* Looks the table up: regions, and the schema when want_schema. Prints a clear
 * error prefixed with "hfilegen CMD: " and returns 1 on failure, 2 on a usage
 * error (no quorum), 0 on success. */
int cli_hbase_fetch(cli_hbase_args *a, int want_schema, hfg_hbase_table *t, const char *cmd);

/* hfilegen's codec name for a table's COMPRESSION (ZSTD's framing from the family's or
 * hbase-site's hbase.io.compress.zstd.codec, else HBase's default, zstd-hadoop);
 * NULL when hfilegen cannot write it (LZO, BZIP2, LZMA, BROTLI). */
const char *cli_hbase_codec(const cli_hbase_args *a, const hfg_hbase_family *f);

/* hfilegen's bloom name for BLOOMFILTER, NULL when unsupported (ROWPREFIX_DELIMITED). */
const char *cli_hbase_bloom(const hfg_hbase_family *f);

/* A ROWPREFIX_FIXED_LENGTH family's RowPrefixBloomFilter.prefix_length (1..32767), 0 when
 * absent or not a number HBase accepts. */
uint32_t cli_hbase_bloom_prefix_length(const hfg_hbase_family *f);

#endif
