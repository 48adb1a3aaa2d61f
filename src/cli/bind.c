/*
 * The command line of `hfilegen build` as a library call, for the Python
 * bindings (python/hfilegen): the same job file and flags mean the same
 * options in both (the parsing is opts.c's). The API is
 * include/hfilegen/build_args.h; built into libhfilegen (not the CLI); problems
 * are printed as the CLI prints them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hfilegen/build_args.h"

#include "cli/cli_checks.h"
#include "cli/cli_flags.h"
#include "cli/cli_util.h"
#include "cli/opts.h"

struct hfg_build_args {
  hfg_build_options o;
  const char **inputs, **maps;
  char **cols;
  char **owned; /* copies of every string the options point to */
  size_t nowned;
};

/* opts.c keeps the strings of a job file, and its --family-option list, in
 * process-wide state that the next parse reuses: each parse copies what its
 * options point to, then resets that state, so that many jobs can live in one
 * process (a Spark worker keys tasks of several jobs). */
static const char *own(hfg_build_args *a, const char *s, int *oom) {
  if (!s) return NULL;
  char *c = strdup(s);
  char **n = c ? realloc(a->owned, (a->nowned + 1) * sizeof *n) : NULL;
  if (!n) {
    free(c);
    *oom = 1;
    return s;
  }
  a->owned = n;
  a->owned[a->nowned++] = c;
  return c;
}

static const char **own_list(hfg_build_args *a, const char *const *l, size_t n, int *oom) {
  const char **c = calloc(n + 1, sizeof *c);
  if (!c) {
    *oom = 1;
    return NULL;
  }
  for (size_t i = 0; i < n; i++) c[i] = own(a, l[i], oom);
  return c;
}

static int own_all(hfg_build_args *a) {
  hfg_build_options *o = &a->o;
  int oom = 0;
  o->rowkey = own(a, o->rowkey, &oom);
  o->splits_file = own(a, o->splits_file, &oom);
  o->out_dir = own(a, o->out_dir, &oom);
  o->tmp_dir = own(a, o->tmp_dir, &oom);
  o->family = own(a, o->family, &oom);
  o->timestamp_column = own(a, o->timestamp_column, &oom);
  o->timestamp_format = own(a, o->timestamp_format, &oom);
  o->rejects_path = own(a, o->rejects_path, &oom);
  o->empty_row_family = own(a, o->empty_row_family, &oom);
  o->empty_row_qualifier = own(a, o->empty_row_qualifier, &oom);
  o->null_string = own(a, o->null_string, &oom);
  o->fields_terminated_by = own(a, o->fields_terminated_by, &oom);
  o->fields_enclosed_by = own(a, o->fields_enclosed_by, &oom);
  o->fields_escaped_by = own(a, o->fields_escaped_by, &oom);
  o->lines_terminated_by = own(a, o->lines_terminated_by, &oom);
  o->check_column = own(a, o->check_column, &oom);
  o->last_value = own(a, o->last_value, &oom);
  o->splits_source = own(a, o->splits_source, &oom);
  o->hfile.bulkload_source_task = own(a, o->hfile.bulkload_source_task, &oom);
  const char **in = own_list(a, o->inputs, o->ninputs, &oom);
  const char **mp = own_list(a, o->mappings, o->nmappings, &oom);
  const char **co = own_list(a, o->columns, o->ncolumns, &oom);
  const char **fo = own_list(a, o->family_options, o->nfamily_options, &oom);
  free(a->inputs);
  free(a->maps);
  a->inputs = in, a->maps = mp;
  o->inputs = in, o->mappings = mp, o->family_options = fo;
  size_t nc = o->ncolumns;
  cli_free_columns(a->cols, o); /* resets opts.c's state; clears o->columns */
  a->cols = NULL;
  o->columns = co, o->ncolumns = nc;
  /* the family-option list, kept in owned as one more block */
  char **n = realloc(a->owned, (a->nowned + 2) * sizeof *n);
  if (n) {
    a->owned = n;
    a->owned[a->nowned++] = (char *)co;
    a->owned[a->nowned++] = (char *)fo;
  }
  return oom || !n || !in || !mp || !co || !fo ? -1 : 0;
}

hfg_build_args *hfg_build_args_parse(int argc, char **argv) {
  char **words; /* --flag=value as --flag value, as the CLI reads them (cli_flags.h) */
  if (cli_flags_normalize("build", argc, argv, &argc, &words)) return NULL;
  argv = words;
  hfg_build_args *a = calloc(1, sizeof *a);
  if (!a) {
    free(words);
    return NULL;
  }
  hfg_build_options_init(&a->o);
  size_t ninputs = 0, nmaps = 0;
  if (cli_load_job_args(argc, argv, &a->o, &a->inputs, &ninputs, &a->maps, &nmaps)) goto bad;
  for (int i = 1; i < argc; i++) {
    const char *f = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(f, "--job") || !strcmp(f, "--input")) {
      if (!v) goto bad;
      i++;
      if (!strcmp(f, "--input")) a->inputs[ninputs++] = v;
    } else if (f[0] != '-' || !strcmp(f, "-")) {
      a->inputs[ninputs++] = f;
    } else if (cli_apply_build_flag(&a->o, f, v, a->maps, &nmaps, &a->cols, &i)) {
      goto bad;
    }
  }
  a->o.inputs = a->inputs;
  a->o.ninputs = ninputs;
  a->o.mappings = a->maps;
  a->o.nmappings = nmaps;
  int oom = own_all(a); /* copies every string the options point to */
  free(words);
  if (oom) {
    hfg_build_args_free(a);
    return NULL;
  }
  return a;
bad:
  free(words);
  free(a->inputs);
  free(a->maps);
  cli_free_columns(a->cols, &a->o);
  free(a);
  return NULL;
}

const hfg_build_options *hfg_build_args_options(const hfg_build_args *a) { return &a->o; }

/* Getters for what the driver needs. */
size_t hfg_build_args_ninputs(const hfg_build_args *a) { return a->o.ninputs; }
const char *hfg_build_args_input(const hfg_build_args *a, size_t i) {
  return i < a->o.ninputs ? a->o.inputs[i] : NULL;
}
const char *hfg_build_args_out(const hfg_build_args *a) { return a->o.out_dir; }
const char *hfg_build_args_rejects(const hfg_build_args *a) { return a->o.rejects_path; }
uint64_t hfg_build_args_max_rejects(const hfg_build_args *a) { return a->o.max_rejects; }
int hfg_build_args_quiet(void) { return cli_quiet; }

void hfg_build_args_free(hfg_build_args *a) {
  if (!a) return;
  free(a->inputs);
  free(a->maps);
  if (a->cols) cli_free_columns(a->cols, NULL);
  for (size_t i = 0; i < a->nowned; i++) free(a->owned[i]);
  free(a->owned);
  free(a);
}

/* What `hfilegen build` checks of its arguments before it reads anything
 * (cmd_build.c), with its messages, for the Spark job to check before Spark
 * starts: the flags it needs and a rowkey that uses a column (2); with files
 * (text inputs: Parquet and ORC ones are Spark's to list), every input file
 * can be opened (1) and --rejects is none of them (2). job_file: --job's
 * file, NULL. 0 when all is well. */
int hfg_build_args_check(const hfg_build_args *a, const char *job_file, int files) {
  const hfg_build_options *o = &a->o;
  if (!o->ninputs || !o->rowkey || !o->out_dir) {
    fprintf(stderr, "hfilegen build: needs --rowkey, --out and at least one input\n");
    return 2;
  }
  if (cli_check_rowkey_columns("build", o->rowkey) || cli_check_family_options("build", o) ||
      cli_check_db_format("build", o))
    return 2;
  if (!files) return 0;
  int rc = cli_check_inputs(o->inputs, o->ninputs, job_file);
  return rc ? rc : cli_check_rejects_path(o, job_file);
}

/* What the Spark job checks before it reads typed inputs (Parquet, ORC). */
int hfg_build_args_format(const hfg_build_args *a) { return a->o.format; }
const char *hfg_build_args_null_string(const hfg_build_args *a) { return a->o.null_string; }
size_t hfg_build_args_ncolumns(const hfg_build_args *a) { return a->o.ncolumns; }
const char *hfg_build_args_column(const hfg_build_args *a, size_t i) {
  return i < a->o.ncolumns ? a->o.columns[i] : NULL;
}

/* Replaces the job's inputs and column names (no header is read): a job whose
 * inputs Spark reads (Parquet, ORC), keyed by name through hfg_batch_key_nulls.
 * Copies every string. 0, or -1 when out of memory (the old lists stay). */
int hfg_build_args_set_source(hfg_build_args *a, size_t ninputs, const char *const *inputs, size_t ncols,
                         const char *const *cols) {
  int oom = 0;
  const char **in = own_list(a, inputs, ninputs, &oom);
  const char **co = oom ? NULL : own_list(a, cols, ncols, &oom);
  char **n = oom ? NULL : realloc(a->owned, (a->nowned + 2) * sizeof *n);
  if (oom || !in || !co || !n) {
    free(in);
    free(co);
    return -1;
  }
  a->owned = n;
  a->owned[a->nowned++] = (char *)co; /* the old column list is in owned too */
  free(a->inputs);
  a->inputs = in;
  a->o.inputs = in;
  a->o.ninputs = ninputs;
  a->o.columns = co;
  a->o.ncolumns = ncols;
  a->o.header = 0;
  return 0;
}

int hfg_parse_size(const char *s, uint64_t *out) { return cli_parse_size(s, out); }
