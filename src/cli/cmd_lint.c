/*
 * `hfilegen lint`: checks a rowkey template against the known HBase rowkey
 * red lines, on the template alone and on sample records.
 *
 * Samples are read with the pipeline's record reader (header row; RFC 4180
 * CSV (any one-byte --delimiter), or TSV for --delimiter tab and, without --delimiter, by the name as
 * build guesses it: hfg_input_format_guess), so lint sees exactly the records
 * build would. Exit code 1 when a finding is an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_flags.h"
#include "cli/cli_rekey_src.h"
#include "cli/cli_util.h"
#include "cli/opts.h"
#include "hfilegen/scheme.h"
#include "build/columns.h"
#include "input/record_dialect.h"
#include "input/record_reader.h"
#include "input/source_db.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: hfilegen lint --rowkey TEMPLATE [--regions N] [--input SAMPLE ...]\n"
          "                     [--delimiter C|tab] [--max-records N] [--format text|json]\n"
          "                     [--input-format csv|tsv|mysql|pg-text|pg-csv] [--columns a,b]\n"
          "                     [--null-string S] [--fields-terminated-by S] [--fields-enclosed-by C]\n"
          "                     [--fields-escaped-by C] [--lines-terminated-by S] (as for build)\n"
          "\n"
          "Checks the rowkey red lines: monotonically increasing prefix, key length (> 100\n"
          "warning, > 200 error), variable-length parts without a separator, separators\n"
          "inside values, buckets vs regions, bucket skew, reversed time, duplicate keys,\n"
          "records the template cannot key, integers with leading zeros copied into the key;\n"
          "suggests --bloom rowprefix:N for a fixed-width bucket or hash prefix. Samples are\n"
          "CSV/TSV with a header row\n"
          "(tab when the name ends in .tsv or .tab, also .tsv.gz etc., as build reads it), or the\n"
          "--input-format dump (--columns when it has no header; a NULL key column skips the\n"
          "record). Exit 1 when any finding is an error.\n"
          CLI_REKEY_SRC_USAGE
          "         (--max-records old rows; the template's fields are the old key's)\n");
}

static void print_reject(void *ctx, const char *what) {
  size_t *nbad = ctx;
  if ((*nbad)++ < 5) fprintf(stderr, "hfilegen lint: %s (row skipped)\n", what);
}

/* The samples are the old table's rows (cli_rekey_src.h): 0, or 1 with the error printed. */
static int lint_old_table(cli_rekey_src *rk, const char *tmpl, uint64_t regions, uint64_t maxrec,
                          hfg_lint **l, hfg_scheme **s, size_t *nrec, size_t *nbad) {
  char err[1024];
  uint64_t rows = 0, rejected = 0;
  rk->ro.build.rowkey = tmpl;
  if (hfg_rekey_lint(&rk->ro, regions, maxrec, print_reject, nbad, l, s, &rows, &rejected, err,
                     sizeof err)) {
    fprintf(stderr, "hfilegen lint: %s\n", err);
    return 1;
  }
  *nrec = (size_t)rows;
  if (rows == 0 && rejected == 0)
    fprintf(stderr, "hfilegen lint: warning: %s holds no rows: only the template was checked, "
                    "not sample keys\n", rk->desc);
  return 0;
}

int cmd_lint(int argc, char **argv) {
  const char *tmpl = NULL, *fmt = "text", *delim_s = NULL;
  hfg_build_options bo; /* the input flags, read as build reads them */
  hfg_build_options_init(&bo);
  char **cols = NULL;
  int input_format = 0;
  const char **inputs = calloc((size_t)argc, sizeof *inputs);
  size_t ninputs = 0;
  uint64_t regions = 0, maxrec = 1000000;
  int rc = 2;
  hfg_scheme *s = NULL;
  hfg_lint *l = NULL;
  hfg_findings *fs = NULL;
  cli_rekey_src rk;
  cli_rekey_src_init(&rk);
  if (!inputs) goto out;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int rkf = cli_rekey_src_flag(&rk, argc, argv, &i, "lint");
    if (rkf < 0) goto out;
    if (rkf) continue;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      rc = 0;
      goto out;
    }
    int dump_flag = !strcmp(a, "--input-format") || !strcmp(a, "--columns") ||
                    !strcmp(a, "--null-string") || !strcmp(a, "--fields-terminated-by") ||
                    !strcmp(a, "--fields-enclosed-by") || !strcmp(a, "--fields-escaped-by") ||
                    !strcmp(a, "--lines-terminated-by");
    if (strcmp(a, "--rowkey") && strcmp(a, "--regions") && strcmp(a, "--input") &&
        strcmp(a, "--delimiter") && strcmp(a, "--max-records") && strcmp(a, "--format") &&
        !dump_flag) {
      cli_flag_unknown("lint", a);
      usage(stderr);
      goto out;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "hfilegen lint: %s needs a value\n", a);
      goto out;
    }
    const char *v = argv[++i];
    if (dump_flag) {
      int k = 0;
      if (cli_apply_build_flag(&bo, !strcmp(a, "--input-format") ? "--format" : a, v, NULL, NULL,
                               &cols, &k))
        goto out;
      input_format |= !strcmp(a, "--input-format");
      continue;
    }
    if (!strcmp(a, "--rowkey")) tmpl = v;
    else if (!strcmp(a, "--input")) inputs[ninputs++] = v;
    else if (!strcmp(a, "--delimiter")) delim_s = v;
    else if (!strcmp(a, "--format")) fmt = v;
    else if (cli_parse_u64(v, !strcmp(a, "--regions") ? &regions : &maxrec)) {
      fprintf(stderr, "hfilegen lint: bad %s '%s'\n", a, v);
      goto out;
    }
  }
  if (!tmpl) {
    fprintf(stderr, "hfilegen lint: --rowkey is required\n");
    usage(stderr);
    goto out;
  }
  if (strcmp(fmt, "text") && strcmp(fmt, "json")) {
    fprintf(stderr, "hfilegen lint: unknown --format '%s' (text, json)\n", fmt);
    goto out;
  }
  int tab = delim_s && (!strcmp(delim_s, "tab") || !strcmp(delim_s, "\t") || !strcmp(delim_s, "\\t"));
  if (delim_s && !tab && (strlen(delim_s) != 1 || delim_s[0] == '"' || delim_s[0] == '\n' ||
                          delim_s[0] == '\r')) {
    fprintf(stderr, "hfilegen lint: --delimiter is tab or one byte (',' ';' '|' ...)\n");
    goto out;
  }
  char err[512];
  size_t nrec = 0, nbad = 0;
  if (cli_rekey_src_check(&rk, ninputs, "lint")) goto out;
  if (rk.given && lint_old_table(&rk, tmpl, regions, maxrec, &l, &s, &nrec, &nbad)) {
    rc = 1;
    goto out;
  }
  if (ninputs) {
    /* the pipeline's record reader: RFC 4180 CSV (quoted newlines too) or TSV,
     * by --delimiter or else by each name as build guesses it; or a dump dialect */
    hfg_input_options io;
    hfg_build_input_options(&bo, &io);
    if (!input_format) {
      io.format = !delim_s ? HFG_INPUT_AUTO : tab ? HFG_INPUT_TSV : HFG_INPUT_CSV;
      io.delimiter = delim_s && !tab ? (unsigned char)delim_s[0] : -1;
    } else if (delim_s) {
      io.delimiter = tab ? '\t' : (unsigned char)delim_s[0];
    }
    hfg_record_reader *rr = NULL;
    if (hfg_record_reader_open(inputs, ninputs, &io, &rr, err, sizeof err)) {
      fprintf(stderr, "hfilegen lint: %s\n", err);
      goto out;
    }
    size_t ncols = 0;
    const char *const *names = hfg_record_reader_columns(rr, &ncols);
    if (!io.has_header) { /* --columns */
      names = bo.columns;
      ncols = bo.ncolumns;
    }
    if (hfg_scheme_compile(tmpl, names, ncols, &s, err, sizeof err)) {
      char shown[1024]; /* a database URI without its password */
      hfg_db_redact(inputs[0], shown, sizeof shown);
      fprintf(stderr, "hfilegen lint: --rowkey against the columns of %s: %s\n", shown, err);
      hfg_record_reader_free(rr);
      goto out;
    }
    if (hfg_lint_new(s, regions, &l)) {
      fprintf(stderr, "hfilegen lint: out of memory\n");
      hfg_record_reader_free(rr);
      goto out;
    }
    hfg_record rec;
    int r;
    while (nrec < maxrec && (r = hfg_record_reader_next(rr, &rec)) != 0) {
      if (r == HFG_EPARSE) {
        if (nbad++ < 5)
          fprintf(stderr, "hfilegen lint: %s %s %llu: %s (record skipped)\n", rec.file,
                  hfg_record_unit(rec.file), (unsigned long long)rec.line, rec.reason);
        continue;
      }
      if (r < 0) {
        fprintf(stderr, "hfilegen lint: %s\n", hfg_record_reader_errmsg(rr));
        hfg_record_reader_free(rr);
        goto out;
      }
      char why[160];
      if (hfg_dialect_null_key(s, rec.fields, rec.nfields, why, sizeof why)) {
        if (nbad++ < 5)
          fprintf(stderr, "hfilegen lint: %s %s %llu: %s (record skipped)\n", rec.file,
                  hfg_record_unit(rec.file), (unsigned long long)rec.line, why);
        continue;
      }
      if (hfg_lint_add(l, rec.fields, rec.nfields)) {
        fprintf(stderr, "hfilegen lint: out of memory\n");
        hfg_record_reader_free(rr);
        goto out;
      }
      nrec++;
    }
    hfg_record_reader_free(rr);
    if (nrec == 0 && nbad == 0) {
      char shown[1024];
      hfg_db_redact(inputs[0], shown, sizeof shown);
      if (ninputs == 1)
        fprintf(stderr, "hfilegen lint: warning: %s holds no records: only the template was "
                        "checked, not sample keys\n", shown);
      else
        fprintf(stderr, "hfilegen lint: warning: none of the %zu --input files (%s, ...) holds a "
                        "record: only the template was checked, not sample keys\n", ninputs, shown);
    }
  }
  if (!s) { /* no sample: columns from the template */
    if (hfg_scheme_compile(tmpl, NULL, 0, &s, err, sizeof err)) {
      fprintf(stderr, "hfilegen lint: --rowkey: %s\n", err);
      goto out;
    }
  }
  if ((!l && hfg_lint_new(s, regions, &l)) || hfg_lint_finish(l, &fs)) {
    fprintf(stderr, "hfilegen lint: out of memory\n");
    rc = 1;
    goto out;
  }
  size_t nf = hfg_findings_count(fs), count[3] = {0, 0, 0};
  if (!strcmp(fmt, "json")) fputs("{\"findings\": [", stdout);
  for (size_t i = 0; i < nf; i++) {
    const hfg_finding *x = hfg_findings_get(fs, i);
    count[x->severity]++;
    if (!strcmp(fmt, "json")) {
      printf("%s{\"severity\": \"%s\", \"code\": \"%s\", \"message\": ", i ? ", " : "",
             hfg_severity_name(x->severity), x->code);
      cli_json_str(stdout, x->message);
      fputs(", \"why\": ", stdout);
      cli_json_str(stdout, x->why);
      fputs(", \"fix\": ", stdout);
      cli_json_str(stdout, x->fix);
      fputc('}', stdout);
    } else {
      printf("%-7s %s: %s\n        why: %s\n        fix: %s\n", hfg_severity_name(x->severity),
             x->code, x->message, x->why, x->fix);
    }
  }
  if (!strcmp(fmt, "json")) {
    fputs("], \"template\": ", stdout);
    cli_json_str(stdout, hfg_scheme_template(s));
    printf(", \"sample_records\": %zu}\n", nrec);
  } else
    printf("%s%zu error%s, %zu warning%s, %zu info (template %s, %zu sample record%s)\n",
           nf ? "\n" : "", count[2], count[2] == 1 ? "" : "s", count[1], count[1] == 1 ? "" : "s",
           count[0], hfg_scheme_template(s), nrec, nrec == 1 ? "" : "s");
  rc = count[2] ? 1 : 0;
out:
  hfg_findings_free(fs);
  hfg_lint_free(l);
  hfg_scheme_free(s);
  free(inputs);
  cli_free_columns(cols, &bo);
  return rc;
}
