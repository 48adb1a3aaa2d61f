/*
 * `hfilegen scan-ranges`: the start/stop rows that cover a range of one
 * field under a rowkey template, one range per bucket (or time bucket) the
 * given fields do not pin down.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "hfilegen/scheme.h"
#include "util/escape.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: hfilegen scan-ranges --rowkey TEMPLATE --from FIELD=V --to FIELD=V\n"
          "                            [--to-inclusive] [--format tsv|shell|json] [--table T]\n"
          "                            [--max-ranges N] [NAME=VALUE ...]\n"
          "\n"
          "Start (inclusive) and stop (exclusive) rows of the scans that return exactly the\n"
          "keys with FIELD in [from, to) (or [from, to] with --to-inclusive) and the given\n"
          "NAME=VALUE fields. Buckets not computable from the given fields yield one range each.\n"
          "  --format tsv    start<TAB>stop per line, bytes escaped (default)\n"
          "           shell  hbase shell scan commands\n"
          "           json   [{\"start\": ..., \"stop\": ...}]\n");
}

static int split_kv(const char *a, char **name, hfg_field *v) {
  const char *eq = strchr(a, '=');
  if (!eq || eq == a) return -1;
  *name = strndup(a, (size_t)(eq - a));
  *v = (hfg_field){eq + 1, strlen(eq + 1), 0};
  return *name ? 0 : -1;
}

int cmd_scan_ranges(int argc, char **argv) {
  const char *tmpl = NULL, *fmt = "tsv", *table = "t", *from_a = NULL, *to_a = NULL;
  int incl = 0, rc = 2;
  uint64_t maxr = 10000;
  hfg_named_value *vals = calloc((size_t)argc, sizeof *vals);
  char **names = calloc((size_t)argc, sizeof *names);
  char *fname = NULL, *tname = NULL;
  size_t n = 0;
  hfg_scheme *s = NULL;
  hfg_keylist *l = NULL;
  if (!vals || !names) goto out;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      rc = 0;
      goto out;
    }
    if (!strcmp(a, "--to-inclusive")) {
      incl = 1;
      continue;
    }
    if (!strcmp(a, "--rowkey") || !strcmp(a, "--format") || !strcmp(a, "--table") ||
        !strcmp(a, "--from") || !strcmp(a, "--to") || !strcmp(a, "--max-ranges")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "hfilegen scan-ranges: %s needs a value\n", a);
        goto out;
      }
      const char *v = argv[++i];
      if (!strcmp(a, "--rowkey")) tmpl = v;
      else if (!strcmp(a, "--format")) fmt = v;
      else if (!strcmp(a, "--table")) table = v;
      else if (!strcmp(a, "--from")) from_a = v;
      else if (!strcmp(a, "--to")) to_a = v;
      else if (cli_parse_u64(v, &maxr) || maxr == 0) {
        fprintf(stderr, "hfilegen scan-ranges: bad --max-ranges '%s'\n", v);
        goto out;
      }
      continue;
    }
    if (a[0] == '-' || split_kv(a, &names[n], &vals[n].value)) {
      fprintf(stderr, "hfilegen scan-ranges: expected NAME=VALUE, got '%s'\n", a);
      usage(stderr);
      goto out;
    }
    vals[n].name = names[n];
    n++;
  }
  hfg_field from, to;
  if (!tmpl || !from_a || !to_a) {
    fprintf(stderr, "hfilegen scan-ranges: --rowkey, --from and --to are required\n");
    usage(stderr);
    goto out;
  }
  if (split_kv(from_a, &fname, &from) || split_kv(to_a, &tname, &to) || strcmp(fname, tname)) {
    fprintf(stderr, "hfilegen scan-ranges: --from and --to must be FIELD=VALUE of the same field\n");
    goto out;
  }
  if (strcmp(fmt, "tsv") && strcmp(fmt, "shell") && strcmp(fmt, "json")) {
    fprintf(stderr, "hfilegen scan-ranges: unknown --format '%s' (tsv, shell, json)\n", fmt);
    goto out;
  }
  char err[512];
  if (hfg_scheme_compile(tmpl, NULL, 0, &s, err, sizeof err)) {
    fprintf(stderr, "hfilegen scan-ranges: --rowkey: %s\n", err);
    goto out;
  }
  int r = hfg_scheme_scan_ranges(s, fname, from, to, incl, vals, n, (size_t)maxr, &l, err, sizeof err);
  if (r) {
    fprintf(stderr, "hfilegen scan-ranges: %s\n", err);
    rc = r == HFG_EINVAL ? 2 : 1;
    goto out;
  }
  size_t nr = hfg_keylist_count(l) / 2;
  fprintf(stderr, "%zu range%s\n", nr, nr == 1 ? "" : "s");
  if (!strcmp(fmt, "json")) fputc('[', stdout);
  for (size_t i = 0; i < nr; i++) {
    size_t sl, tl;
    const uint8_t *st = hfg_keylist_get(l, 2 * i, &sl), *sp = hfg_keylist_get(l, 2 * i + 1, &tl);
    if (!strcmp(fmt, "tsv")) {
      hfg_escape_fputs(stdout, st, sl);
      fputc('\t', stdout);
      hfg_escape_fputs(stdout, sp, tl);
      fputc('\n', stdout);
    } else if (!strcmp(fmt, "json")) {
      fputs(i ? ", {\"start\": " : "{\"start\": ", stdout);
      cli_json_bytes(stdout, st, sl);
      fputs(", \"stop\": ", stdout);
      cli_json_bytes(stdout, sp, tl);
      fputc('}', stdout);
    } else {
      char *a = NULL, *b = NULL;
      if (hfg_key_format(st, sl, HFG_KEYFMT_SHELL, &a) || hfg_key_format(sp, tl, HFG_KEYFMT_SHELL, &b)) {
        hfg_scheme_buf_free(a);
        rc = 1;
        goto out;
      }
      /* An empty stop row means "to the end of the table". */
      if (tl)
        printf("scan '%s', {STARTROW => %s, STOPROW => %s}\n", table, a, b);
      else
        printf("scan '%s', {STARTROW => %s}\n", table, a);
      hfg_scheme_buf_free(a);
      hfg_scheme_buf_free(b);
    }
  }
  if (!strcmp(fmt, "json")) fputs("]\n", stdout);
  rc = 0;
out:
  hfg_keylist_free(l);
  hfg_scheme_free(s);
  for (size_t i = 0; names && i < n; i++) free(names[i]);
  free(names);
  free(vals);
  free(fname);
  free(tname);
  return rc;
}
