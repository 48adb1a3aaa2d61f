/*
 * `hfilegen splits --table T` without --regions: the live table's split points
 * (the start keys of its regions but the first, as RegionLocator.getStartKeys
 * gives them) as a splits file, an hbase shell `create` statement (with the
 * table's families) or JSON.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_hbase.h"
#include "cli/cli_util.h"
#include "hfilegen/scheme.h"
#include "util/escape.h"

int cmd_splits_live_wanted(int argc, char **argv) {
  int table = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--regions") || !strcmp(argv[i], "--algo")) return 0;
    if (!strcmp(argv[i], "--table")) table = 1;
  }
  return table;
}

int cmd_splits_live(int argc, char **argv) {
  cli_hbase_args hb;
  memset(&hb, 0, sizeof hb);
  const char *fmt = "lines", *outp = NULL;
  for (int i = 1; i < argc; i++) {
    int k = cli_hbase_flag(&hb, argc, argv, &i, 1, "splits");
    if (k < 0) return 2;
    if (k) continue;
    if ((!strcmp(argv[i], "--format") || !strcmp(argv[i], "-o")) && i + 1 < argc) {
      if (!strcmp(argv[i], "-o")) outp = argv[++i];
      else fmt = argv[++i];
      continue;
    }
    fprintf(stderr, "hfilegen splits: '%s' does not go with --table (the live table's split "
                    "points take --format, -o and the connection flags)\n", argv[i]);
    return 2;
  }
  if (strcmp(fmt, "lines") && strcmp(fmt, "shell") && strcmp(fmt, "json")) {
    fprintf(stderr, "hfilegen splits: unknown --format '%s' (lines, shell, json)\n", fmt);
    return 2;
  }
  hfg_hbase_table t;
  memset(&t, 0, sizeof t);
  int rc = cli_hbase_fetch(&hb, !strcmp(fmt, "shell"), &t, "splits");
  if (rc) {
    hfg_hbase_table_free(&t);
    return rc;
  }
  FILE *f = stdout;
  if (outp && !(f = fopen(outp, "w"))) {
    fprintf(stderr, "hfilegen splits: %s: %s\n", outp, strerror(errno));
    hfg_hbase_table_free(&t);
    return 1;
  }
  if (!strcmp(fmt, "lines")) {
    for (size_t i = 1; i < t.nregions; i++) {
      hfg_escape_fputs(f, t.regions[i].start, t.regions[i].start_len);
      fputc('\n', f);
    }
  } else if (!strcmp(fmt, "shell")) {
    fputs("create ", f);
    cli_ruby_sq(f, hb.table);
    for (size_t k = 0; k < t.nfamilies; k++) {
      const hfg_hbase_family *fa = &t.families[k];
      fputs(", {NAME => ", f);
      cli_ruby_sq(f, fa->name);
      fprintf(f, ", COMPRESSION => '%s', BLOOMFILTER => '%s', BLOCKSIZE => '%u'", fa->compression,
              fa->bloom, fa->block_size);
      if (strcmp(fa->encoding, "NONE")) fprintf(f, ", DATA_BLOCK_ENCODING => '%s'", fa->encoding);
      if (fa->bloom_prefix_length) { /* ROWPREFIX_FIXED_LENGTH needs it to create the family */
        fputs(", CONFIGURATION => {'RowPrefixBloomFilter.prefix_length' => ", f);
        cli_ruby_sq(f, fa->bloom_prefix_length);
        fputc('}', f);
      }
      fputc('}', f);
    }
    if (t.nregions > 1) {
      fputs(", SPLITS => [", f);
      for (size_t i = 1; i < t.nregions; i++) {
        char *q;
        if (hfg_key_format(t.regions[i].start, t.regions[i].start_len, HFG_KEYFMT_SHELL, &q)) {
          rc = 1;
          break;
        }
        fprintf(f, "%s%s", i > 1 ? ", " : "", q);
        hfg_scheme_buf_free(q);
      }
      fputc(']', f);
    }
    fputc('\n', f);
  } else {
    fputs("{\"table\": ", f);
    cli_json_str(f, hb.table);
    fprintf(f, ", \"regions\": %zu, \"source\": ", t.nregions);
    cli_json_str(f, hb.source);
    fputs(", \"splits\": [", f);
    for (size_t i = 1; i < t.nregions; i++) {
      fputs(i > 1 ? ", " : "", f);
      cli_json_bytes(f, t.regions[i].start, t.regions[i].start_len);
    }
    fputs("], \"splits_hex\": [", f);
    for (size_t i = 1; i < t.nregions; i++) {
      fputs(i > 1 ? ", \"" : "\"", f);
      for (size_t j = 0; j < t.regions[i].start_len; j++) fprintf(f, "%02x", t.regions[i].start[j]);
      fputc('"', f);
    }
    fputs("]}\n", f);
  }
  if (f != stdout && fclose(f)) {
    fprintf(stderr, "hfilegen splits: %s: %s\n", outp, strerror(errno));
    rc = 1;
  }
  hfg_hbase_table_free(&t);
  return rc;
}
