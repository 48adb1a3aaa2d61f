/* hfilegen rekey: the CLI face of hfg_rekey_run (include/hfilegen/rekey.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_checks.h"
#include "cli/cli_build_live.h"
#include "cli/cli_rekey_src.h"
#include "cli/cli_signals.h"
#include "cli/cli_util.h"
#include "cli/opts.h"
#include "hfilegen/rekey.h"

static const char USAGE[] =
    "usage: hfilegen rekey --from DIR [--snapshot NAME] --old-key PATTERN --rowkey TEMPLATE\n"
    "                      --splits FILE|--table NAME --out DIR [options]\n"
    "\n"
    "Re-keys an HBase table offline: reads every store file of snapshot NAME under DIR (an\n"
    "HBase root directory or an ExportSnapshot -copy-to target; without --snapshot, DIR holds\n"
    "family folders of HFiles), parses each old rowkey with PATTERN ({id}, {id:long},\n"
    "{user}|{ts}: see 'Old-key patterns' in format-specs/rowkey-templates.md), builds the new\n"
    "one with TEMPLATE, and writes one HFile per region per family of the new table, with\n"
    "every cell's family, qualifier, timestamp, type, value and tags, published as build does.\n"
    "\n"
    "cells:   by default what a scan of all versions returns (deletes applied, each family's\n"
    "         VERSIONS, MIN_VERSIONS and TTL from the snapshot's schema) at --as-of MILLIS\n"
    "         (default now); --raw: every cell, delete markers included\n"
    "hfile:   each family's COMPRESSION, BLOOMFILTER, DATA_BLOCK_ENCODING and BLOCKSIZE from\n"
    "         the snapshot's schema, under the new table's (--table), under --codec, --bloom,\n"
    "         --encoding, --block-size (every family), under --family-option FAMILY:KEY=VALUE\n"
    "live:    --table NAME instead of --splits: the new table's region boundaries, its\n"
    "         families' settings and MAX_FILESIZE from the running cluster, as for build\n"
    "         (--zookeeper host:port[,...] [--znode-parent /hbase] or --hbase-site FILE or\n"
    "         $HBASE_CONF_DIR/hbase-site.xml; --hbase-timeout MS); every family of the old\n"
    "         table must be one of the new table's\n"
    "run:     --memory 1g  --tmp-dir DIR  --threads N  --max-file-size 10g  --rejects FILE\n"
    "         --no-direct-io (write through the page cache, not O_DIRECT)\n"
    "         --max-rejects N (old keys that do not parse)  --job-timestamp MILLIS (names\n"
    "         the files)  --quiet\n"
    "\n"
    "Before: hfilegen plan, splits --algo sample and lint take the same --from [--snapshot]\n"
    "--old-key [--raw] [--as-of] and show what rekey will write (regions, skew, findings).\n";

static void print_summary(const hfg_rekey_options *o, const hfg_rekey_summary *s) {
  const hfg_build_summary *b = &s->build;
  printf("hfilegen rekey: %s%s%s -> %s\n", o->from_dir, o->snapshot ? " snapshot " : "",
         o->snapshot ? o->snapshot : "", o->build.out_dir);
  if (s->snapshot_table[0]) printf("  table             %s\n", s->snapshot_table);
  printf("  old rows          %llu read = %llu written + %llu rejected (old key did not parse) + "
         "%llu without visible cells\n",
         (unsigned long long)b->records_read, (unsigned long long)b->records_written,
         (unsigned long long)b->records_rejected, (unsigned long long)b->records_without_cells);
  printf("  new rows          %llu written\n", (unsigned long long)b->records_written);
  printf("  store files       %llu\n", (unsigned long long)s->store_files);
  printf("  cells             %llu read (%llu delete markers), %llu written\n",
         (unsigned long long)s->cells_read, (unsigned long long)s->markers_read,
         (unsigned long long)b->cells);
  printf("  dropped           %llu markers applied, %llu deleted, %llu expired, %llu beyond "
         "VERSIONS, %llu duplicate keys, %llu outside their region\n",
         (unsigned long long)s->dropped_markers, (unsigned long long)s->dropped_deleted,
         (unsigned long long)s->dropped_expired, (unsigned long long)s->dropped_versions,
         (unsigned long long)s->dropped_duplicate, (unsigned long long)s->dropped_outside);
  printf("  view              %s as of %lld\n", o->raw ? "raw" : "visible",
         (long long)s->as_of);
  printf("  HFiles            %llu (%.1f MB)\n", (unsigned long long)b->files,
         (double)b->output_bytes / 1e6);
  printf("  time              %.2fs (ingest %.2fs, emit %.2fs, publish %.2fs)\n",
         b->ingest_seconds + b->emit_seconds + b->publish_seconds, b->ingest_seconds,
         b->emit_seconds, b->publish_seconds);
}

/* A flag in argv, as FLAG VALUE or FLAG=VALUE. */
static int flag_given(int argc, char **argv, const char *flag) {
  size_t n = strlen(flag);
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], flag, n) && (argv[i][n] == 0 || argv[i][n] == '=')) return 1;
  return 0;
}

/* The HFile settings the command line chose for every family: they win over the
 * snapshot's schema (and the live table's, which cli_build_live_apply leaves unset). */
static unsigned hfile_given(const hfg_build_options *o, int argc, char **argv) {
  hfg_build_options d;
  hfg_build_options_init(&d);
  unsigned m = 0;
  if (flag_given(argc, argv, "--codec") || o->hfile.codec != d.hfile.codec)
    m |= HFG_REKEY_GIVEN_CODEC;
  if (flag_given(argc, argv, "--bloom") || o->hfile.bloom != d.hfile.bloom)
    m |= HFG_REKEY_GIVEN_BLOOM;
  if (flag_given(argc, argv, "--block-size") || o->hfile.block_size != d.hfile.block_size)
    m |= HFG_REKEY_GIVEN_BLOCK_SIZE;
  if (flag_given(argc, argv, "--encoding") || o->hfile.encoding != d.hfile.encoding)
    m |= HFG_REKEY_GIVEN_ENCODING;
  return m;
}

int cmd_rekey(int argc, char **argv) {
  cli_rekey_src src; /* --from, --snapshot, --old-key, --raw, --as-of: as plan, splits, lint */
  cli_rekey_src_init(&src);
  hfg_rekey_options *ro = &src.ro;
  hfg_build_options *o = &ro->build;
  const char *maps[1];
  size_t nmaps = 0;
  char **cols = NULL;
  int rc = 2;
  cli_build_live live;
  memset(&live, 0, sizeof live);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    int hk;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(USAGE, stdout);
      rc = 0;
      goto out;
    }
    int rkf = cli_rekey_src_flag(&src, argc, argv, &i, "rekey");
    if (rkf < 0) goto out;
    if (rkf) continue;
    if (a[0] != '-') {
      fprintf(stderr, "hfilegen rekey: '%s': rekey reads --from DIR, not inputs\n", a);
      goto out;
    } else if (!strcmp(a, "--map") || !strcmp(a, "--columns") || !strcmp(a, "--input") ||
               !strcmp(a, "--job") || !strcmp(a, "--on-duplicate") ||
               !strcmp(a, "--timestamp")) {
      fprintf(stderr, "hfilegen rekey: %s is not a rekey option (cells keep their families, "
                      "qualifiers and timestamps)\n", a);
      goto out;
    } else if ((hk = cli_hbase_flag(&live.hb, argc, argv, &i, 1, "rekey")) != 0) {
      if (hk < 0) goto out;
    } else if (cli_apply_build_flag(o, a, v, maps, &nmaps, &cols, &i)) {
      goto out;
    }
  }
  if (!ro->from_dir || !ro->old_key || !o->rowkey || !o->out_dir) {
    const char *need[] = {ro->from_dir ? NULL : "--from", ro->old_key ? NULL : "--old-key",
                          o->rowkey ? NULL : "--rowkey", o->out_dir ? NULL : "--out"};
    char miss[64] = "";
    for (size_t k = 0; k < 4; k++)
      if (need[k]) snprintf(miss + strlen(miss), sizeof miss - strlen(miss), "%s%s",
                            miss[0] ? ", " : "", need[k]);
    fprintf(stderr, "hfilegen rekey: needs --from, --old-key, --rowkey and --out\n"
            "hfilegen rekey: missing: %s\n%s",
            miss, USAGE);
    goto out;
  }
  if (cli_rekey_src_root_check("rekey", ro->from_dir, ro->snapshot)) goto out; /* rc 2 */
  if ((rc = cli_check_work_paths("rekey", o)) != 0) goto out; /* before the output is taken */
  ro->hfile_given = hfile_given(o, argc, argv);
  if (live.hb.table && (rc = cli_build_live_apply(&live, o, argc, argv, "rekey"))) goto out;
  rc = 2;
  o->cancel = &cli_interrupted;
  cli_signals_begin("rekey", o);
  hfg_rekey_summary s;
  int r = hfg_rekey_run(ro, &s);
  cli_signals_end();
  if (s.warning[0]) fprintf(stderr, "hfilegen rekey: warning: %s\n", s.warning);
  if (r == HFG_ECANCELED && cli_interrupted) {
    fprintf(stderr, "hfilegen rekey: interrupted by %s (%s): removed the temporary HFiles and "
                    "spill runs (%.1f MB); nothing was published in %s\n",
            cli_signal_name(cli_interrupted), s.build.error,
            (double)s.build.removed_bytes / 1e6, o->out_dir);
    rc = 128 + cli_interrupted;
  } else if (r) {
    fprintf(stderr, "hfilegen rekey: FAILED: %s\n", s.build.error);
    fprintf(stderr, "hfilegen rekey: nothing was published in %s (%llu old row%s read, %llu "
                    "rejected)\n",
            o->out_dir, (unsigned long long)s.build.records_read,
            s.build.records_read == 1 ? "" : "s", (unsigned long long)s.build.records_rejected);
    rc = r == HFG_EINVAL ? 2 : 1;
  } else {
    if (!cli_quiet) print_summary(ro, &s);
    if (s.build.records_rejected)
      fprintf(stderr, "hfilegen rekey: %llu old row%s rejected: see %s\n",
              (unsigned long long)s.build.records_rejected,
              s.build.records_rejected == 1 ? "" : "s", s.build.rejects_path);
    rc = 0;
  }
  hfg_rekey_summary_free(&s);
out:
  cli_build_live_free(&live);
  cli_free_columns(cols, o);
  return rc;
}
