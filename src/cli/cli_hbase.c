/* The CLI side of the live-table lookup: see cli_hbase.h. */
#include "cli/cli_hbase.h"
#include "cli/opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "hfilegen/status.h"

int cli_hbase_flag(cli_hbase_args *a, int argc, char **argv, int *i, int take_table,
                   const char *cmd) {
  const char *f = argv[*i];
  const char **dst = !strcmp(f, "--zookeeper")                 ? &a->zookeeper
                     : !strcmp(f, "--znode-parent")            ? &a->znode_parent
                     : !strcmp(f, "--hbase-site")              ? &a->hbase_site
                     : !strcmp(f, "--hbase-dump")              ? &a->dump_dir
                     : (take_table && !strcmp(f, "--table"))   ? &a->table
                                                               : NULL;
  int is_timeout = !strcmp(f, "--hbase-timeout");
  if (!dst && !is_timeout) return 0;
  if (*i + 1 >= argc || !argv[*i + 1][0]) {
    fprintf(stderr, "hfilegen %s: %s needs a value\n", cmd, f);
    return -1;
  }
  const char *v = argv[++*i];
  if (is_timeout) {
    char *end;
    long ms = strtol(v, &end, 10);
    if (*end || ms < 100 || ms > 3600000) {
      fprintf(stderr, "hfilegen %s: bad --hbase-timeout '%s' (milliseconds, 100..3600000)\n",
              cmd, v);
      return -1;
    }
    a->timeout_ms = (int)ms;
    return 1;
  }
  *dst = v;
  if (dst == &a->table) a->table_from_job = 0;
  return 1;
}

int cli_hbase_job_key(void *ctx, const char *flag, const char *value) {
  cli_hbase_args *a = ctx;
  if (!cli_hbase_flag_takes_value(flag)) return 0;
  char *av[] = {"job", (char *)flag, (char *)value, NULL};
  int at = 1;
  if (cli_hbase_flag(a, 3, av, &at, 1, "build") != 1) return -1;
  if (!strcmp(flag, "--table")) a->table_from_job = 1;
  return 1;
}

void cli_hbase_job_precedence(cli_hbase_args *a, const char **splits_file, int argc,
                              char **argv, const char *cmd) {
  int splits_flag = 0;
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--splits")) splits_flag = 1;
  if (a->table && a->table_from_job && splits_flag) {
    if (!cli_quiet)
      fprintf(stderr, "hfilegen %s: --splits on the command line replaces the job file's "
                      "table '%s'\n", cmd, a->table);
    a->table = NULL;
  } else if (a->table && !a->table_from_job && *splits_file && !splits_flag) {
    if (!cli_quiet)
      fprintf(stderr, "hfilegen %s: --table on the command line replaces the job file's "
                      "splits %s\n", cmd, *splits_file);
    *splits_file = NULL;
  }
}

int cli_hbase_flag_takes_value(const char *f) {
  return !strcmp(f, "--table") || !strcmp(f, "--zookeeper") || !strcmp(f, "--znode-parent") ||
         !strcmp(f, "--hbase-site") || !strcmp(f, "--hbase-dump") || !strcmp(f, "--hbase-timeout");
}

static int file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int cli_hbase_fetch(cli_hbase_args *a, int want_schema, hfg_hbase_table *t, const char *cmd) {
  /* hbase-site.xml: --hbase-site, else $HBASE_CONF_DIR/hbase-site.xml when present */
  const char *site = a->hbase_site;
  const char *conf_dir = getenv("HBASE_CONF_DIR");
  if (!site && conf_dir && *conf_dir) {
    snprintf(a->site_path, sizeof a->site_path, "%s/hbase-site.xml", conf_dir);
    if (file_exists(a->site_path)) site = a->site_path;
  }
  if (site) {
    char err[1024];
    if (hfg_hbase_site_load(site, &a->site, err, sizeof err)) {
      fprintf(stderr, "hfilegen %s: %s\n", cmd, err);
      return 2;
    }
    a->have_site = 1;
    snprintf(a->site_path, sizeof a->site_path, "%s", site);
    const char *why = hfg_hbase_site_unsupported(&a->site);
    if (why) {
      fprintf(stderr, "hfilegen %s: %s: %s\n", cmd, site, why);
      return 1;
    }
  }
  hfg_hbase_options o = HFG_HBASE_OPTIONS_INIT;
  o.quorum = a->zookeeper ? a->zookeeper : (a->have_site && a->site.quorum[0] ? a->site.quorum
                                                                              : NULL);
  if (!o.quorum) {
    fprintf(stderr,
            "hfilegen %s: --table needs the cluster's ZooKeeper quorum: --zookeeper "
            "host:port[,...], --hbase-site FILE, or HBASE_CONF_DIR with an hbase-site.xml\n",
            cmd);
    return 2;
  }
  if (a->have_site && a->site.client_port) o.client_port = a->site.client_port;
  if (a->znode_parent) o.znode_parent = a->znode_parent;
  else if (a->have_site && a->site.znode_parent[0]) o.znode_parent = a->site.znode_parent;
  if (a->timeout_ms) o.timeout_ms = a->timeout_ms;
  o.dump_dir = a->dump_dir;
  hfg_hbase *c = hfg_hbase_new(&o);
  if (!c) {
    fprintf(stderr, "hfilegen %s: out of memory\n", cmd);
    return 1;
  }
  int rc = hfg_hbase_regions(c, a->table, t);
  if (!rc && want_schema) rc = hfg_hbase_schema(c, a->table, t);
  if (rc) {
    fprintf(stderr, "hfilegen %s: table '%s' on ZooKeeper %s%s: %s\n", cmd, a->table, o.quorum,
            o.znode_parent, hfg_hbase_errmsg(c));
    hfg_hbase_free(c);
    return 1;
  }
  snprintf(a->source, sizeof a->source, "table %s (%zu regions from hbase:meta on %s; ZooKeeper %s%s)",
           a->table, t->nregions, t->meta_server, o.quorum, o.znode_parent);
  hfg_hbase_free(c);
  return 0;
}

const char *cli_hbase_codec(const cli_hbase_args *a, const hfg_hbase_family *f) {
  const char *c = f->compression;
  if (!strcasecmp(c, "NONE")) return "none";
  if (!strcasecmp(c, "GZ")) return "gz";
  if (!strcasecmp(c, "SNAPPY")) return "snappy";
  if (!strcasecmp(c, "LZ4")) return "lz4";
  if (!strcasecmp(c, "ZSTD")) {
    const char *cls = f->zstd_codec ? f->zstd_codec
                      : a->have_site && a->site.zstd_codec[0] ? a->site.zstd_codec
                                                              : NULL;
    /* Compression.Algorithm.ZSTD's default class is Hadoop's ZStandardCodec */
    return cls && strstr(cls, "org.apache.hadoop.hbase.io.compress.zstd") ? "zstd-hbase"
                                                                          : "zstd-hadoop";
  }
  return NULL;
}

const char *cli_hbase_bloom(const hfg_hbase_family *f) {
  if (!strcasecmp(f->bloom, "NONE")) return "none";
  if (!strcasecmp(f->bloom, "ROW")) return "row";
  if (!strcasecmp(f->bloom, "ROWCOL")) return "rowcol";
  if (!strcasecmp(f->bloom, "ROWPREFIX_FIXED_LENGTH")) return "rowprefix_fixed_length";
  return NULL;
}

uint32_t cli_hbase_bloom_prefix_length(const hfg_hbase_family *f) {
  const char *s = f->bloom_prefix_length;
  if (!s || !*s) return 0;
  char *end;
  unsigned long n = strtoul(s, &end, 10);
  return *end || *s == '-' || *s == '+' || n == 0 || n > 32767 ? 0 : (uint32_t)n;
}
