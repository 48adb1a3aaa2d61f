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
#include "input/source_db.h"

/* Every input file is opened only when its turn comes, so a missing third input
 * used to fail the job after the first two were read (hours for a big job), and
 * one file given twice made every record a duplicate of itself ("a.csv line 14
 * and a.csv line 14") with no word about why. Both are found here, before
 * anything is read: the first fails the job, the second is warned about (with
 * --on-duplicate last|first reading a file twice is harmless). A database URI
 * given twice is the same rows twice: warned about as well. stdin given twice
 * is refused. Returns 0, 1 (a file that cannot be read) or 2 (stdin twice)
 * after a message. */

/* The same database query: the URIs equal but for the scheme's alias
 * (postgres:// is postgresql://, mariadb:// is mysql://). */
static int same_query(const char *a, const char *b) {
  static const struct { const char *prefix; int kind; } S[] = {
      {"postgresql://", 1}, {"postgres://", 1}, {"mysql://", 2}, {"mariadb://", 2}};
  int ka = 0, kb = 0;
  for (size_t k = 0; k < sizeof S / sizeof S[0]; k++) {
    size_t l = strlen(S[k].prefix);
    if (!ka && !strncmp(a, S[k].prefix, l)) ka = S[k].kind, a += l;
    if (!kb && !strncmp(b, S[k].prefix, l)) kb = S[k].kind, b += l;
  }
  return ka && ka == kb && !strcmp(a, b);
}

int cli_check_inputs(const char *const *inputs, size_t n, const char *job_file) {
  struct stat *st = calloc(n ? n : 1, sizeof *st);
  int rc = 0;
  if (!st) return 0; /* the reader will tell */
  size_t first_stdin = 0;
  for (size_t k = 0; k < n && !rc; k++) {
    const char *p = inputs[k];
    if (!strcmp(p, "-") && first_stdin) {
      fprintf(stderr, "hfilegen build: - (stdin) is inputs %zu and %zu: it can be read once "
                      "(the second would be empty)\n", first_stdin, k + 1);
      rc = 2;
      break;
    }
    if (!strcmp(p, "-")) first_stdin = k + 1;
    if (hfg_db_is_uri(p))
      for (size_t j = 0; j < k; j++)
        if (same_query(inputs[j], p)) {
          char a[512], b[512]; /* without a password */
          hfg_db_redact(inputs[j], a, sizeof a);
          hfg_db_redact(p, b, sizeof b);
          fprintf(stderr,
                  "hfilegen build: warning: %s and %s (inputs %zu and %zu) are the same database "
                  "query: each of its rows is read twice, a duplicate of itself\n",
                  a, b, j + 1, k + 1);
          break;
        }
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

/* The --deletes source is read after every row: a file that cannot be opened
 * failed the job only then. */
int cli_check_deletes(const hfg_build_options *o) {
  const char *p = o->deletes;
  if (!p || !strcmp(p, "-") || strstr(p, "://")) return 0;
  struct stat st;
  const char *why = NULL;
  if (stat(p, &st) != 0 || access(p, R_OK) != 0) why = strerror(errno);
  else if (S_ISDIR(st.st_mode)) why = "is a directory, not a file";
  if (!why) return 0;
  fprintf(stderr, "hfilegen build: FAILED: --deletes %s: cannot open: %s\n"
          "hfilegen build: nothing was read or published\n", p, why);
  return 1;
}

/* The rejects file is created empty when the job starts and removed when it
 * ends without rejects, so a --rejects naming an input deleted that input (and
 * a larger one was cut short under the reader: records silently lost); the
 * splits or job file went the same way. Refused here. Returns 0 or 2. */
int cli_check_rejects_path(const hfg_build_options *o, const char *job_file) {
  struct stat rs, st;
  if (!o->rejects_path || stat(o->rejects_path, &rs) != 0 || !S_ISREG(rs.st_mode)) return 0;
  for (size_t k = 0; k <= o->ninputs + 2; k++) {
    const char *p = k < o->ninputs       ? o->inputs[k]
                    : k == o->ninputs     ? o->splits_file
                    : k == o->ninputs + 1 ? job_file
                                          : o->deletes; /* read after the rows: lost first */
    if (!p || !strcmp(p, "-") || strstr(p, "://") || stat(p, &st) != 0) continue;
    if (st.st_dev != rs.st_dev || st.st_ino != rs.st_ino) continue;
    char what[64];
    if (k < o->ninputs) snprintf(what, sizeof what, "input %zu", k + 1);
    else snprintf(what, sizeof what, k == o->ninputs       ? "the --splits file"
                                     : k == o->ninputs + 1 ? "the --job file"
                                                           : "the --deletes file");
    fprintf(stderr,
            "hfilegen build: --rejects %s is %s (%s): the rejects file is written from empty "
            "and removed when nothing is rejected; give another path\n",
            o->rejects_path, p, what);
    return 2;
  }
  return 0;
}

/* A reader over inputs paths[0..n) with the job's reader options (*io set to
 * them), or NULL when the first cannot be read twice (stdin, a database, a
 * pipe) or they do not open (the job reports that). */
static hfg_record_reader *open_again(const hfg_build_options *o, const char *const *paths,
                                     size_t n, hfg_input_options *io) {
  struct stat st;
  const char *p = paths[0];
  if (!strcmp(p, "-") || strstr(p, "://") || stat(p, &st) || !S_ISREG(st.st_mode)) return NULL;
  hfg_build_input_options(o, io);
  hfg_record_reader *r = NULL;
  return hfg_record_reader_open(paths, n, io, &r, NULL, 0) ? NULL : r;
}

/* The first record of input p read with the job's reader options (*got: the
 * reader's return), or NULL for what cannot be read twice (stdin, a database)
 * or does not open (the job reports that). The caller frees the reader. */
static hfg_record_reader *first_record(const hfg_build_options *o, const char *p,
                                       hfg_record *rec, int *got) {
  hfg_input_options io;
  hfg_record_reader *r = open_again(o, &p, 1, &io);
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
  hfg_input_options io;
  hfg_record_reader *r = open_again(o, &p, 1, &io);
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

int cli_check_headers(const char *cmd, const hfg_build_options *o) {
  if (!o->header || o->ninputs < 2) return 0;
  hfg_input_options io;
  hfg_record_reader *r = open_again(o, o->inputs, o->ninputs, &io);
  if (!r) return 0;
  int rc = 0;
  for (size_t k = 1; k < o->ninputs && !rc; k++) {
    if (!hfg_record_reader_input_regular(r, k)) continue; /* stdin, a database: read once */
    hfg_record_reader *p = NULL;
    char msg[256];
    if (hfg_record_reader_open_part(r, &io, k, 0, 1, 1, &p, msg, sizeof msg)) continue;
    hfg_record rec;
    if (hfg_record_reader_next(p, &rec) == HFG_EINVAL &&
        strstr(hfg_record_reader_errmsg(p), "header differs from")) {
      fprintf(stderr,
              "hfilegen %s: FAILED: %s: the inputs of one job share one header (checked "
              "before any record is read): give such inputs to jobs of their own, or make "
              "their headers the same\n",
              cmd, hfg_record_reader_errmsg(p));
      rc = 1;
    }
    hfg_record_reader_free(p);
  }
  hfg_record_reader_free(r);
  return rc;
}

/* A database input's rows come typed from the server, in no file format:
 * --format (csv, tsv, a dump dialect) was ignored for them without a word. */
int cli_check_db_format(const char *cmd, const hfg_build_options *o) {
  static const char *const NAMES[] = {"csv", "tsv", "", "mysql", "pg-text", "pg-csv"};
  if (o->format == HFG_BUILD_AUTO || o->format < 0 || o->format > HFG_BUILD_PG_CSV) return 0;
  size_t db = 0, first = 0;
  for (size_t k = 0; k < o->ninputs; k++)
    if (hfg_db_is_uri(o->inputs[k]) && !db++) first = k;
  if (!db) return 0;
  char shown[512];
  hfg_db_redact(o->inputs[first], shown, sizeof shown);
  if (db < o->ninputs) { /* the files read it */
    fprintf(stderr, "hfilegen %s: note: --format %s is for the files; %s (input %zu) is a "
            "database input, whose rows come typed from the server\n", cmd, NAMES[o->format],
            shown, first + 1);
    return 0;
  }
  fprintf(stderr, "hfilegen %s: --format %s does not apply to %s (input %zu%s): a database "
          "input's rows come typed from the server, in no file format; drop --format\n", cmd,
          NAMES[o->format], shown, first + 1, db > 1 ? ", and the other database inputs" : "");
  return 2;
}

/* The family of FAMILY:KEY=VALUE (--family-option), checked by opts.c, gets
 * columns: the default family or one a --map names. Else the build failed
 * late (exit 1, "no column is mapped to that family"). */
int cli_check_family_options(const char *cmd, const hfg_build_options *o) {
  const char *dflt = o->family ? o->family : "cf";
  char fams[1024]; /* 'cf', 'd': the families columns go to */
  size_t fl = (size_t)snprintf(fams, sizeof fams, "'%s'", dflt);
  for (size_t m = 0; m < o->nmappings && fl < sizeof fams; m++) {
    const char *fam = strchr(o->mappings[m], '=');
    const char *c = fam ? strchr(++fam, ':') : NULL;
    char q[300];
    if (!c || (size_t)(c - fam) > 256) continue; /* COL=- */
    snprintf(q, sizeof q, "'%.*s'", (int)(c - fam), fam);
    if (!strstr(fams, q)) fl += (size_t)snprintf(fams + fl, sizeof fams - fl, ", %s", q);
  }
  for (size_t i = 0; i < o->nfamily_options; i++) {
    const char *fo = o->family_options[i], *colon = strchr(fo, ':');
    const char *eq = colon ? strchr(colon, '=') : NULL;
    char q[300];
    if (!eq || colon - fo > 256) continue; /* refused by opts.c */
    snprintf(q, sizeof q, "'%.*s'", (int)(colon - fo), fo);
    if (strstr(fams, q)) continue;
    fprintf(stderr, "hfilegen %s: --family-option %s: family %s, key '%.*s', value '%s': no "
            "column goes to family %s (the families: %s): map columns there with --map "
            "COL=%.*s:QUALIFIER, or give one of those\n", cmd, fo, q, (int)(eq - colon - 1),
            colon + 1, eq + 1, q, fams, (int)(colon - fo), fo);
    return 2;
  }
  return 0;
}

/* The job's own files outside the output directory: --tmp-dir (spill runs)
 * must be a directory it can write in, and --rejects a file it can create or
 * write. The build finds both only after it has taken the output directory
 * (created it, or moved an existing one aside and back), which then stayed
 * behind, created or changed, after a job that never started. */
/* p made absolute (against the working directory) with ".", ".." and
 * repeated slashes taken out, lexically, into out. 0, or -1 if too long. */
static int abs_lexical(const char *p, char *out, size_t cap) {
  char cwd[4096];
  if (p[0] != '/' && !getcwd(cwd, sizeof cwd)) return -1;
  char tmp[8200];
  if ((size_t)snprintf(tmp, sizeof tmp, "%s/%s", p[0] == '/' ? "" : cwd, p) >= sizeof tmp)
    return -1;
  size_t n = 0;
  for (char *s = tmp; *s;) {
    while (*s == '/') s++;
    size_t l = strcspn(s, "/");
    if (!l) break;
    if (l == 1 && s[0] == '.') {
    } else if (l == 2 && s[0] == '.' && s[1] == '.') {
      while (n > 0 && out[--n] != '/') {}
    } else {
      if (n + l + 2 > cap) return -1;
      out[n++] = '/';
      memcpy(out + n, s, l);
      n += l;
    }
    s += l;
  }
  if (n == 0) out[n++] = '/';
  out[n] = '\0';
  return 0;
}

int cli_check_work_paths(const char *cmd, const hfg_build_options *o) {
  struct stat st;
  if (o->tmp_dir) {
    const char *why = NULL;
    if (stat(o->tmp_dir, &st) != 0) why = strerror(errno);
    else if (!S_ISDIR(st.st_mode)) why = strerror(ENOTDIR);
    else if (access(o->tmp_dir, W_OK | X_OK) != 0) why = strerror(errno);
    if (why) {
      fprintf(stderr, "hfilegen %s: FAILED: temporary directory %s (spill runs go there): %s\n"
              "hfilegen %s: nothing was published in %s (0 records read; the directory was not "
              "created or changed)\n", cmd, o->tmp_dir, why, cmd, o->out_dir);
      return 1;
    }
  }
  const char *r = o->rejects_path;
  if (!r || !o->out_dir) return 0;
  const char *why = NULL;
  if (stat(r, &st) == 0) {
    if (S_ISDIR(st.st_mode)) why = strerror(EISDIR);
    else if (access(r, W_OK) != 0) why = strerror(errno);
  } else if (errno != ENOENT) {
    why = strerror(errno);
  } else {
    char dir[4096];
    const char *slash = strrchr(r, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == r ? 1 : (int)(slash - r), r);
    char ad[4096], ao[4096];
    if (stat(dir, &st) != 0) {
      why = strerror(errno);
      /* the output directory (or a directory in it), which the build creates */
      if (!abs_lexical(dir, ad, sizeof ad) && !abs_lexical(o->out_dir, ao, sizeof ao) &&
          !strncmp(ad, ao, strlen(ao)) && (ad[strlen(ao)] == '/' || !ad[strlen(ao)]))
        return 0;
    } else if (!S_ISDIR(st.st_mode)) why = strerror(ENOTDIR);
    else if (access(dir, W_OK | X_OK) != 0) why = strerror(errno);
  }
  if (!why) return 0;
  fprintf(stderr, "hfilegen %s: FAILED: --rejects %s: %s\nhfilegen %s: nothing was published in "
          "%s (0 records read; the directory was not created or changed)\n", cmd, r, why, cmd,
          o->out_dir);
  return 1;
}
