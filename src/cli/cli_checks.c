/* Checks of a build's inputs before the first record is read: the mistakes a
 * new user makes that the job would otherwise find late (a missing input after
 * hours of reading) or never (a header loaded as a row, a rejects file over
 * the input). See cli_checks.h. */
#include "cli/cli_checks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "build/columns.h"
#include "input/record_reader.h"

/* Every input file is opened only when its turn comes, so a missing third input
 * used to fail the job after the first two were read (hours for a big job), and
 * one file given twice made every record a duplicate of itself ("a.csv line 14
 * and a.csv line 14") with no word about why. Both are found here, before
 * anything is read: the first fails the job, the second is warned about (with
 * --on-duplicate last|first reading a file twice is harmless). stdin and
 * database URIs are left to the reader. Returns 0, or 1 after a message. */
int cli_check_inputs(const char *const *inputs, size_t n, const char *job_file) {
  struct stat *st = calloc(n ? n : 1, sizeof *st);
  int rc = 0;
  if (!st) return 0; /* the reader will tell */
  size_t first_stdin = 0;
  for (size_t k = 0; k < n && !rc; k++) {
    const char *p = inputs[k];
    if (!strcmp(p, "-") && first_stdin) {
      fprintf(stderr, "hfilegen build: FAILED: - (stdin) is inputs %zu and %zu: it can be read "
                      "once (the second would be empty)\n", first_stdin, k + 1);
      rc = 1;
      break;
    }
    if (!strcmp(p, "-")) first_stdin = k + 1;
    if (!strcmp(p, "-") || strstr(p, "://")) continue;
    const char *why = NULL;
    if (stat(p, &st[k]) != 0 || access(p, R_OK) != 0) why = strerror(errno);
    else if (S_ISDIR(st[k].st_mode)) why = "is a directory, not a file (give the files in it)";
    if (why) {
      int e = errno;
      fprintf(stderr, "hfilegen build: FAILED: %s (input %zu of %zu): cannot open: %s\n", p,
              k + 1, n, why);
      if (job_file && p[0] != '/' && e == ENOENT)
        fprintf(stderr, "hfilegen build: (paths in a job file are relative to the directory "
                        "hfilegen runs in, not to the job file %s)\n", job_file);
      fprintf(stderr, "hfilegen build: nothing was read or published\n");
      rc = 1;
      break;
    }
    if (!S_ISREG(st[k].st_mode)) continue; /* a pipe or device: read as it comes */
    for (size_t j = 0; j < k; j++)
      if (strcmp(inputs[j], "-") && !strstr(inputs[j], "://") && S_ISREG(st[j].st_mode) &&
          st[j].st_dev == st[k].st_dev && st[j].st_ino == st[k].st_ino) {
        fprintf(stderr,
                "hfilegen build: warning: %s and %s (inputs %zu and %zu) are the same file: "
                "each of its records is read twice, a duplicate of itself\n",
                inputs[j], p, j + 1, k + 1);
        break;
      }
  }
  free(st);
  return rc;
}

/* The rejects file is created empty when the job starts and removed when it
 * ends without rejects, so a --rejects naming an input deleted that input (and
 * a larger one was cut short under the reader: records silently lost); the
 * splits or job file went the same way. Refused here. Returns 0 or 2. */
int cli_check_rejects_path(const hfg_build_options *o, const char *job_file) {
  struct stat rs, st;
  if (!o->rejects_path || stat(o->rejects_path, &rs) != 0 || !S_ISREG(rs.st_mode)) return 0;
  for (size_t k = 0; k <= o->ninputs + 1; k++) {
    const char *p = k < o->ninputs ? o->inputs[k] : k == o->ninputs ? o->splits_file : job_file;
    if (!p || !strcmp(p, "-") || strstr(p, "://") || stat(p, &st) != 0) continue;
    if (st.st_dev != rs.st_dev || st.st_ino != rs.st_ino) continue;
    char what[64];
    if (k < o->ninputs) snprintf(what, sizeof what, "input %zu", k + 1);
    else snprintf(what, sizeof what, k == o->ninputs ? "the --splits file" : "the --job file");
    fprintf(stderr,
            "hfilegen build: --rejects %s is %s (%s): the rejects file is written from empty "
            "and removed when nothing is rejected; give another path\n",
            o->rejects_path, p, what);
    return 2;
  }
  return 0;
}

/* A reader over input p alone with the job's reader options, or NULL for what
 * cannot be read twice (stdin, a database, a pipe) or does not open (the job
 * reports that). */
static hfg_record_reader *open_again(const hfg_build_options *o, const char *p) {
  struct stat st;
  if (!strcmp(p, "-") || strstr(p, "://") || stat(p, &st) || !S_ISREG(st.st_mode)) return NULL;
  hfg_input_options io;
  hfg_build_input_options(o, &io);
  hfg_record_reader *r = NULL;
  return hfg_record_reader_open(&p, 1, &io, &r, NULL, 0) ? NULL : r;
}

/* The first record of input p read with the job's reader options (*got: the
 * reader's return), or NULL for what cannot be read twice (stdin, a database)
 * or does not open (the job reports that). The caller frees the reader. */
static hfg_record_reader *first_record(const hfg_build_options *o, const char *p,
                                       hfg_record *rec, int *got) {
  hfg_record_reader *r = open_again(o, p);
  if (r) *got = hfg_record_reader_next(r, rec);
  return r;
}

/* A MySQL dump written with LINES TERMINATED BY '\r\n' (or moved through
 * Windows) read with the default '\n': every last field keeps a CR, as MySQL's
 * own LOAD DATA would, and nothing said so. Warned about when the first record
 * of a file ends in one. */
void cli_warn_mysql_crlf(const hfg_build_options *o) {
  if (o->format != HFG_BUILD_MYSQL || o->lines_terminated_by) return;
  for (size_t k = 0; k < o->ninputs; k++) {
    const char *p = o->inputs[k];
    hfg_record rec;
    int got;
    hfg_record_reader *r = first_record(o, p, &rec, &got);
    if (!r) continue;
    int cr = (got == 1 || got == HFG_EPARSE) && rec.raw_len && rec.raw[rec.raw_len - 1] == '\r';
    hfg_record_reader_free(r);
    if (cr) {
      fprintf(stderr,
              "hfilegen build: warning: %s: line 1 ends in CR LF: each record's last field keeps "
              "the CR; if the dump was written with LINES TERMINATED BY '\\r\\n', give "
              "--lines-terminated-by '\\r\\n'\n",
              p);
      return;
    }
  }
}

/* A header with an empty name ("id,,note", a trailing comma) makes the column's
 * values cells with an empty qualifier (cf:), legal in HBase but rarely meant,
 * and nothing said so; a name with blanks around it keeps them in its
 * qualifier. Warned about here (the first file's header names the columns),
 * unless --map maps the empty name ('=-' drops it). */
void cli_warn_unnamed_columns(const hfg_build_options *o) {
  for (size_t m = 0; m < o->nmappings; m++)
    if (o->mappings[m][0] == '=') return;
  /* the same from --columns ("id," a trailing comma), with or without --header */
  for (size_t i = 0; i < o->ncolumns; i++)
    if (!o->columns[i][0])
      fprintf(stderr,
              "hfilegen build: warning: --columns name %zu is empty: that column's values become "
              "cells with an empty qualifier (%s:); drop it with --map '=-', or name it\n",
              i + 1, o->family ? o->family : "cf");
  if (!o->header || o->ncolumns || !o->ninputs) return;
  const char *p = o->inputs[0];
  hfg_record_reader *r = open_again(o, p);
  if (!r) return;
  size_t n = 0;
  const char *const *names = hfg_record_reader_columns(r, &n);
  for (size_t i = 0; names && i < n; i++)
    if (strchr(names[i], '\r')) {
      fprintf(stderr,
              "hfilegen build: warning: %s: the header's column %zu holds a CR: lines that end "
              "in CR alone (classic Mac OS) are one line here; convert them (tr '\\r' '\\n')\n",
              p, i + 1);
      break;
    }
  for (size_t i = 0; names && i < n; i++)
    if (!names[i][0])
      fprintf(stderr,
              "hfilegen build: warning: %s: column %zu of the header has no name: its values "
              "become cells with an empty qualifier (%s:); drop it with --map '=-', or name the "
              "columns with --header --columns\n",
              p, i + 1, o->family ? o->family : "cf");
  /* " User Name ": the spaces are part of the qualifier (and of any --map COL name) */
  for (size_t i = 0; names && i < n; i++) {
    size_t l = strlen(names[i]);
    int mapped = 0; /* a --map of this very name says where it goes */
    for (size_t m = 0; m < o->nmappings && !mapped; m++)
      mapped = !strncmp(o->mappings[m], names[i], l) && o->mappings[m][l] == '=';
    if (l && !mapped &&
        (names[i][0] == ' ' || names[i][0] == '\t' || names[i][l - 1] == ' ' ||
         names[i][l - 1] == '\t'))
      fprintf(stderr,
              "hfilegen build: warning: %s: header column %zu '%s' begins or ends with a blank, "
              "which stays in its qualifier (%s:%s); rename the columns with --header --columns "
              "if that is not meant\n",
              p, i + 1, names[i], o->family ? o->family : "cf", names[i]);
  }
  hfg_record_reader_free(r);
}

/* --columns without --header says the input has no header, so a header line
 * would be read as a record: its names a row (rowkey 'id', cells 'user_id',
 * ...). The reader refuses an input whose first record holds exactly those
 * names (hfg_record_reader_next), as the job reads it; the files that can be
 * read twice (not stdin, a pipe or a database) are read here first, so that
 * the job is refused before it starts. Returns 0 or 2 after a message. Build
 * and plan (whose sample would hold the header as a record) call it. */
int cli_check_header_as_data(const char *cmd, const hfg_build_options *o) {
  if (o->header || !o->ncolumns) return 0;
  for (size_t k = 0; k < o->ninputs; k++) {
    hfg_record rec;
    int got;
    hfg_record_reader *r = first_record(o, o->inputs[k], &rec, &got);
    if (!r) continue;
    if (got == HFG_EINVAL) fprintf(stderr, "hfilegen %s: %s\n", cmd, hfg_record_reader_errmsg(r));
    hfg_record_reader_free(r);
    if (got == HFG_EINVAL) return 2;
  }
  return 0;
}
