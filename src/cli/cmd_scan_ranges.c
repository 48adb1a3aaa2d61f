/*
 * `hfilegen scan-ranges`: the start/stop rows that cover a range of one
 * field under a rowkey template, one range per bucket (or time bucket) the
 * given fields do not pin down.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_flags.h"
#include "cli/cli_util.h"
#include "hfilegen/scheme.h"
#include "util/escape.h"

#define MAX_GETS 1000
#define EXIT_SUPERSET 3

static void usage(FILE *f) {
  fprintf(f,
          "usage: hfilegen scan-ranges --rowkey TEMPLATE --from FIELD=V --to FIELD=V\n"
          "                            [--to-inclusive] [--format tsv|shell|json] [--table T]\n"
          "                            [--max-ranges N] [--gets] [NAME=VALUE ...]\n"
          "\n"
          "Start (inclusive) and stop (exclusive) rows of the scans for the keys with FIELD in\n"
          "[from, to) (or [from, to] with --to-inclusive) and the given NAME=VALUE fields.\n"
          "Buckets not computable from the given fields yield one range each.\n"
          "FIELD is compared as an integer when its part needs one (desc, long, int, lpad,\n"
          "millis) or both values are plain decimals (no leading zero), else as bytes.\n"
          "The ranges are exact only where the key's byte order is FIELD's order: desc(),\n"
          "long(), int(), lpad() of integers, {f :0W} below 10^(W-1), text that ends the key.\n"
          "A decimal of varying width ({id}: the key of 1000 begins with the key of 100) or text\n"
          "followed by more key bytes gives a SUPERSET: printed with the filter the client must\n"
          "add and the exact alternatives (a padded template; --gets for a short integer range).\n"
          "  --format tsv    start<TAB>stop per line, bytes escaped (default)\n"
          "           shell  hbase shell scan commands (a superset's notice as # comments)\n"
          "           json   [{\"start\": ..., \"stop\": ...}]\n"
          "  --gets          for a superset over at most %d integers with every other field\n"
          "                  given: print the exact row keys to get instead (one per value)\n"
          "Exit status: 0 exact ranges (or --gets keys), 3 a superset was printed (filter the\n"
          "rows), 2 bad arguments or an empty/reversed range, 1 other errors.\n",
          MAX_GETS);
}

static int split_kv(const char *a, char **name, hfg_field *v) {
  const char *eq = strchr(a, '=');
  if (!eq || eq == a) return -1;
  *name = strndup(a, (size_t)(eq - a));
  *v = (hfg_field){eq + 1, strlen(eq + 1), 0};
  return *name ? 0 : -1;
}

/* Why the ranges are a superset, the filter and the exact alternatives; each
 * line starts with lead. */
static void superset_notice(FILE *o, const char *lead, const hfg_scan_info *in, size_t nr) {
  fprintf(o, "%sNOT EXACT: %s\n", lead, in->reason);
  fprintf(o, "%s  the %zu range%s hold%s more rows than asked for: keep only the rows where %s\n",
          lead, nr, nr == 1 ? "" : "s", nr == 1 ? "s" : "", in->filter);
  if (in->gets && in->values <= MAX_GETS)
    fprintf(o, "%s  exact instead: --gets prints the %llu row keys of the range to get\n", lead,
            (unsigned long long)in->values);
  if (in->padded[0])
    fprintf(o, "%s  exact instead: build the table with --rowkey '%s' (then these ranges are exact)\n",
            lead, in->padded);
}

/* --gets: one row key per value of the range (every other field given). */
static int print_gets(const hfg_scheme *s, const hfg_scan_info *in, const char *field,
                      const hfg_named_value *vals, size_t n, const char *fmt, const char *table) {
  if (!in->gets || in->values > MAX_GETS) {
    if (!in->gets)
      fprintf(stderr, "hfilegen scan-ranges: --gets needs a superset over an integer range of a plain "
                      "decimal field, with every other field of the template given\n");
    else
      fprintf(stderr, "hfilegen scan-ranges: --gets: the range holds %llu values, more than %d\n",
              (unsigned long long)in->values, MAX_GETS);
    return 2;
  }
  hfg_named_value *all = calloc(n + 1, sizeof *all);
  if (!all) return 1;
  memcpy(all, vals, n * sizeof *all);
  char num[32], err[512];
  int rc = 0;
  if (!strcmp(fmt, "json")) fputc('[', stdout);
  for (uint64_t i = 0; i < in->values && !rc; i++) {
    int k = snprintf(num, sizeof num, "%lld", (long long)(in->first + (int64_t)i));
    all[n] = (hfg_named_value){field, {num, (size_t)k, 0}};
    uint8_t *key = NULL;
    size_t len = 0;
    char *txt = NULL;
    if (hfg_scheme_key(s, all, n + 1, &key, &len, err, sizeof err)) {
      fprintf(stderr, "hfilegen scan-ranges: --gets: %s=%s: %s\n", field, num, err);
      rc = 1;
    } else if (!strcmp(fmt, "tsv")) {
      hfg_escape_fputs(stdout, key, len);
      fputc('\n', stdout);
    } else if (!strcmp(fmt, "json")) {
      fputs(i ? ", " : "", stdout);
      cli_json_bytes(stdout, key, len);
    } else if (hfg_key_format(key, len, HFG_KEYFMT_SHELL, &txt)) {
      rc = 1;
    } else {
      fputs("get ", stdout);
      cli_ruby_sq(stdout, table);
      printf(", %s\n", txt);
    }
    hfg_scheme_buf_free(txt);
    hfg_scheme_buf_free(key);
  }
  if (!strcmp(fmt, "json")) fputs("]\n", stdout);
  free(all);
  if (!rc) fprintf(stderr, "%llu point gets (exact)\n", (unsigned long long)in->values);
  return rc;
}

int cmd_scan_ranges(int argc, char **argv) {
  const char *tmpl = NULL, *fmt = "tsv", *table = "t", *from_a = NULL, *to_a = NULL;
  int incl = 0, gets = 0, rc = 2;
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
    if (!strcmp(a, "--gets")) {
      gets = 1;
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
    if (a[0] == '-' && a[1] == '-') {
      cli_flag_unknown("scan-ranges", a);
      goto out;
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
    cli_template_caret(stderr, tmpl, err);
    goto out;
  }
  hfg_scan_info info;
  int r = hfg_scheme_scan_ranges(s, fname, from, to, incl, vals, n, (size_t)maxr, &l, &info, err,
                                 sizeof err);
  if (r) {
    fprintf(stderr, "hfilegen scan-ranges: %s\n", err);
    cli_template_columns_hint(stderr, s, err);
    rc = r == HFG_EINVAL ? 2 : 1;
    goto out;
  }
  if (gets && !info.exact) {
    rc = print_gets(s, &info, fname, vals, n, fmt, table);
    goto out;
  }
  if (gets) fprintf(stderr, "hfilegen scan-ranges: the ranges are exact; --gets is not needed\n");
  if (!info.exact) /* shell: as comments before the scans, which the hbase shell skips */
    superset_notice(strcmp(fmt, "shell") ? stderr : stdout,
                    strcmp(fmt, "shell") ? "hfilegen scan-ranges: " : "# ", &info,
                    hfg_keylist_count(l) / 2);
  size_t nr = hfg_keylist_count(l) / 2;
  fprintf(stderr, "%zu range%s%s\n", nr, nr == 1 ? "" : "s",
          info.exact ? "" : " (a superset: filter the rows; exit status 3)");
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
      fputs("scan ", stdout);
      cli_ruby_sq(stdout, table);
      if (tl)
        printf(", {STARTROW => %s, STOPROW => %s}\n", a, b);
      else
        printf(", {STARTROW => %s}\n", a);
      hfg_scheme_buf_free(a);
      hfg_scheme_buf_free(b);
    }
  }
  if (!strcmp(fmt, "json")) fputs("]\n", stdout);
  rc = info.exact ? 0 : EXIT_SUPERSET;
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
