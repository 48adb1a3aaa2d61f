/*
 * `hfilegen lint`: checks a rowkey template against the known HBase rowkey
 * red lines, on the template alone and on sample records.
 *
 * The sample is read by a deliberately small local reader (header row, one
 * record per line, comma or tab separated, RFC 4180 double quotes within a
 * line): the pipeline's record reader is a separate module, and a lint sample
 * needs none of its options. Exit code 1 when a finding is an error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_util.h"
#include "hfilegen/scheme.h"

#define MAX_COLS 1024

static void usage(FILE *f) {
  fprintf(f,
          "usage: hfilegen lint --rowkey TEMPLATE [--regions N] [--input SAMPLE ...]\n"
          "                     [--delimiter ','|tab] [--max-records N] [--format text|json]\n"
          "\n"
          "Checks the rowkey red lines: monotonically increasing prefix, key length (> 100\n"
          "warning, > 200 error), variable-length parts without a separator, separators\n"
          "inside values, buckets vs regions, bucket skew, reversed time, duplicate keys,\n"
          "records the template cannot key. Samples are CSV/TSV with a header row\n"
          "(tab when the name ends in .tsv). Exit 1 when any finding is an error.\n");
}

/* Splits one line in place into fields; quotes only with ',' delimiter.
 * Returns the field count or -1 on a malformed quote. */
static int split_line(char *line, char delim, hfg_field *f, int maxf) {
  int n = 0;
  char *p = line;
  for (;;) {
    if (n == maxf) return -1;
    if (delim == ',' && *p == '"') { /* quoted: "" is a quote; unquote in place */
      char *w = ++p, *start = p;
      for (;;) {
        if (!*p) return -1;
        if (*p == '"') {
          if (p[1] == '"') {
            *w++ = '"';
            p += 2;
            continue;
          }
          p++;
          break;
        }
        *w++ = *p++;
      }
      f[n++] = (hfg_field){start, (size_t)(w - start)};
      if (*p != delim && *p) return -1;
    } else {
      char *e = strchr(p, delim);
      if (!e) e = p + strlen(p);
      f[n++] = (hfg_field){p, (size_t)(e - p)};
      p = e;
    }
    if (!*p) return n;
    p++; /* delimiter */
  }
}

static void chomp(char *s) {
  size_t n = strlen(s);
  while (n && (s[n - 1] == '\n' || s[n - 1] == '\r')) s[--n] = '\0';
}

int cmd_lint(int argc, char **argv) {
  const char *tmpl = NULL, *fmt = "text", *delim_s = NULL;
  const char **inputs = calloc((size_t)argc, sizeof *inputs);
  size_t ninputs = 0;
  uint64_t regions = 0, maxrec = 1000000;
  int rc = 2;
  hfg_scheme *s = NULL;
  hfg_lint *l = NULL;
  hfg_findings *fs = NULL;
  char **header = NULL;
  int nheader = 0;
  hfg_field *fields = calloc(MAX_COLS, sizeof *fields);
  char *line = NULL;
  size_t cap = 0;
  if (!inputs || !fields) goto out;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      rc = 0;
      goto out;
    }
    if (strcmp(a, "--rowkey") && strcmp(a, "--regions") && strcmp(a, "--input") &&
        strcmp(a, "--delimiter") && strcmp(a, "--max-records") && strcmp(a, "--format")) {
      fprintf(stderr, "hfilegen lint: unknown option '%s'\n", a);
      usage(stderr);
      goto out;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "hfilegen lint: %s needs a value\n", a);
      goto out;
    }
    const char *v = argv[++i];
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
  if (delim_s && strcmp(delim_s, ",") && strcmp(delim_s, "tab") && strcmp(delim_s, "\t")) {
    fprintf(stderr, "hfilegen lint: --delimiter is ',' or tab\n");
    goto out;
  }
  char err[512];
  size_t nrec = 0;
  for (size_t k = 0; k < ninputs; k++) {
    const char *path = inputs[k];
    size_t pl = strlen(path);
    char delim = delim_s ? (delim_s[0] == ',' ? ',' : '\t') : (pl > 4 && !strcmp(path + pl - 4, ".tsv") ? '\t' : ',');
    FILE *in = fopen(path, "r");
    if (!in) {
      perror(path);
      rc = 2;
      goto out;
    }
    long lineno = 0;
    int bad = 0;
    while (getline(&line, &cap, in) >= 0 && !bad) {
      lineno++;
      chomp(line);
      int n = split_line(line, delim, fields, MAX_COLS);
      if (n < 0) {
        fprintf(stderr, "hfilegen lint: %s line %ld: malformed quoting or more than %d fields\n", path, lineno, MAX_COLS);
        bad = 1;
        break;
      }
      if (lineno == 1) { /* header */
        if (!header) {
          header = calloc((size_t)n, sizeof *header);
          if (!header) bad = 1;
          for (int c = 0; c < n && !bad; c++)
            if (!(header[nheader++] = strndup(fields[c].p, fields[c].len))) bad = 1;
          if (!bad && hfg_scheme_compile(tmpl, (const char *const *)header, (size_t)nheader, &s, err, sizeof err)) {
            fprintf(stderr, "hfilegen lint: --rowkey against the columns of %s: %s\n", path, err);
            bad = 1;
          }
          if (!bad && hfg_lint_new(s, regions, &l)) bad = 1;
        } else {
          int same = n == nheader;
          for (int c = 0; c < n && same; c++)
            same = strlen(header[c]) == fields[c].len && !memcmp(header[c], fields[c].p, fields[c].len);
          if (!same) {
            fprintf(stderr, "hfilegen lint: %s: header differs from the first input's\n", path);
            bad = 1;
          }
        }
        continue;
      }
      if (nrec >= maxrec) break;
      if (n == 1 && fields[0].len == 0) continue; /* blank line */
      if (hfg_lint_add(l, fields, (size_t)n)) {
        fprintf(stderr, "hfilegen lint: out of memory\n");
        bad = 1;
      }
      nrec++;
    }
    fclose(in);
    if (bad) {
      rc = 2;
      goto out;
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
  for (int i = 0; i < nheader; i++) free(header[i]);
  free(header);
  free(line);
  free(fields);
  free(inputs);
  return rc;
}
