/*
 * Publish: the output directory (checked, locked, staged under a hidden
 * name), then the job's files renamed into place, manifest.json and _SUCCESS
 * last, and the directory renamed back; or, for a failed job, its temporaries
 * removed and the directory restored. See build_internal.h for the stages.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build/build_internal.h"
#include "util/alloc.h"
#include "util/fsio.h"

/* ---- before ingest: the output directory ---- */

/* mkdir -p; made gets the first directory it created ("" when none), which a
 * failed job removes again (unmake_dirs), even when a later mkdir fails. */
static int make_dirs(const char *path, char *made, size_t cap) {
  char tmp[4096];
  size_t n = strlen(path);
  made[0] = '\0';
  if (n == 0 || n >= sizeof tmp || n >= cap) return ENAMETOOLONG;
  memcpy(tmp, path, n + 1);
  for (char *p = tmp + 1;; p++) {
    if (*p && *p != '/') continue;
    char c = *p;
    *p = 0;
    if (mkdir(tmp, 0755) == 0) {
      if (!made[0]) memcpy(made, tmp, strlen(tmp) + 1);
    } else if (errno != EEXIST) {
      return errno;
    }
    if (!c) break;
    *p = c;
  }
  return 0;
}

/* path without its trailing slashes (but "/"), in place */
static void trim_slashes(char *p) {
  size_t n = strlen(p);
  while (n > 1 && p[n - 1] == '/') p[--n] = '\0';
}

/* Undoes make_dirs(out, made): removes out (when it is there) and its parents
 * up to made, each only while it is an empty directory; a directory that holds
 * something (the rejects file a failed job keeps) stays, with its parents. */
static void unmake_dirs(const char *out, const char *made) {
  char p[4096], m[4096];
  if (!made[0] || snprintf(p, sizeof p, "%s", out) >= (int)sizeof p) return;
  snprintf(m, sizeof m, "%s", made);
  trim_slashes(p);
  trim_slashes(m);
  for (;;) {
    if (rmdir(p) && errno != ENOENT) return;
    if (!strcmp(p, m)) return;
    char *slash = strrchr(p, '/');
    if (!slash || slash == p) return;
    *slash = '\0';
    trim_slashes(p);
  }
}

/* p as an absolute path: its real path when it exists, else its parent's real
 * path and its last component, else p joined to the working directory; then
 * "." and ".." and repeated slashes taken out lexically. 0, or -1 if too long. */
static int abs_path(const char *p, char *out, size_t cap) {
  char tmp[4200], parent[4200];
  const char *base = NULL;
  if (realpath(p, tmp)) {
    /* as it is */
  } else {
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/') n--;
    const char *slash = memrchr(p, '/', n);
    base = slash ? slash + 1 : p;
    int bl = (int)(n - (size_t)(base - p));
    if (slash) snprintf(parent, sizeof parent, "%.*s", slash == p ? 1 : (int)(slash - p), p);
    else snprintf(parent, sizeof parent, ".");
    char rp[4200];
    if (realpath(parent, rp)) {
      if ((size_t)snprintf(tmp, sizeof tmp, "%s/%.*s", rp, bl, base) >= sizeof tmp) return -1;
    } else {
      char cwd[4096];
      if (p[0] == '/') snprintf(cwd, sizeof cwd, "%s", "");
      else if (!getcwd(cwd, sizeof cwd)) return -1;
      if ((size_t)snprintf(tmp, sizeof tmp, "%s/%.*s", cwd, (int)n, p) >= sizeof tmp) return -1;
    }
  }
  /* lexical: components pushed and popped */
  size_t o = 0;
  for (const char *s = tmp; *s;) {
    while (*s == '/') s++;
    const char *e = strchr(s, '/');
    size_t l = e ? (size_t)(e - s) : strlen(s);
    if (l == 0) break;
    if (l == 1 && s[0] == '.') {
    } else if (l == 2 && s[0] == '.' && s[1] == '.') {
      while (o > 0 && out[o - 1] != '/') o--;
      if (o > 0) o--;
    } else {
      if (o + 1 + l + 1 > cap) return -1;
      out[o++] = '/';
      memcpy(out + o, s, l);
      o += l;
    }
    s += l;
  }
  if (o == 0) out[o++] = '/';
  out[o] = '\0';
  return 0;
}

int hfg_build_check_rejects_path(job *j) {
  const hfg_build_options *o = j->o;
  if (!o->rejects_path) return 0;
  char r[4200], d[4200];
  if (abs_path(o->rejects_path, r, sizeof r) || abs_path(o->out_dir, d, sizeof d)) return 0;
  size_t n = strlen(d);
  const char *why = NULL;
  if (!strcmp(r, d)) {
    why = "is the output directory";
  } else if (!strncmp(r, d, n) && r[n] == '/') {
    const char *rel = r + n + 1;
    if (strchr(rel, '/'))
      why = "is inside a directory of the output (a family directory, where completebulkload "
            "takes every file for an HFile)";
    else if (!strcmp(rel, "_SUCCESS") || !strcmp(rel, "manifest.json"))
      why = "is a file the job writes when it publishes (its rejects would be overwritten)";
    else if (rel[0] == '.')
      why = "is a hidden name in the output directory (the job keeps its own files there)";
  }
  if (!why) return 0;
  return fail(j, HFG_EINVAL,
              "--rejects %s %s (output directory %s); leave --rejects out for "
              "%s/_rejects.tsv, or give a path outside it",
              o->rejects_path, why, o->out_dir, o->out_dir);
}

/* ---- staging: the output appears in one rename ----
 *
 * completebulkload loads every <out>/<family>/<file> it finds, _SUCCESS or
 * not, so renaming HFiles into place one by one leaves a loadable partial
 * output when the job is killed half-way. Instead the (empty) output
 * directory is renamed to a hidden sibling, <parent>/.<name>.hfilegen-staging,
 * the job writes and publishes there, and renaming it back is the last step:
 * families, manifest.json and _SUCCESS appear together or not at all. A
 * failed job's directory is renamed back too (HFiles removed, rejects kept);
 * a killed job's stays hidden and the next job into the same directory
 * removes it. The job holds a flock on the directory so that two jobs never
 * share one. Where the directory cannot be renamed (a mount point, another
 * file system, no write access to the parent) the job works in it directly.
 */

/* nftw passes no context: the bytes a removal freed, per thread */
static _Thread_local uint64_t rm_bytes;

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  if (remove(p) == 0 && flag == FTW_F) rm_bytes += (uint64_t)st->st_size;
  return 0;
}

/* Spill runs are named _hfilegen-<pid>-run-N; the job notes its pid and
 * where its spill runs go (the staging directory or --tmp-dir) in the
 * directory it works in, so that after a kill -9 the next job into the same
 * output directory removes them with the staging directory, and so that
 * hfg_build_abandon knows the directory for its own. */
#define SPILL_NOTE "_hfilegen-spills"

/* The note in dir: 0 with its pid, spill directory and (made, when not NULL)
 * the first directory the job created for its output ("" when none), else -1. */
static int read_note(const char *dir, int *pid, char *spills, size_t cap, char *made,
                     size_t mcap) {
  char note[4200];
  snprintf(note, sizeof note, "%s/" SPILL_NOTE, dir);
  FILE *f = fopen(note, "r");
  if (!f) return -1;
  int ok = fscanf(f, "%d\n", pid) == 1 && fgets(spills, (int)cap, f) != NULL;
  if (ok && made && (!fgets(made, (int)mcap, f) || made[0] != '+')) made[0] = '\0';
  fclose(f);
  if (!ok) return -1;
  spills[strcspn(spills, "\n")] = '\0';
  if (made && made[0]) {
    made[strcspn(made, "\n")] = '\0';
    memmove(made, made + 1, strlen(made)); /* the '+' that marks the line */
  }
  return 0;
}

/* Removes pid's spill runs (and its tmp-dir probe) in dir. */
static void remove_spills(const char *dir, int pid) {
  char prefix[64];
  int pl = snprintf(prefix, sizeof prefix, "_hfilegen-%d-", pid);
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (strncmp(de->d_name, prefix, (size_t)pl)) continue;
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
    struct stat st;
    if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && unlink(p) == 0)
      rm_bytes += (uint64_t)st.st_size;
  }
  closedir(d);
}

static void remove_stale_spills(const char *stage) {
  char dir[4096];
  int pid;
  if (!read_note(stage, &pid, dir, sizeof dir, NULL, 0)) remove_spills(dir, pid);
}

void hfg_build_note_spill_dir(job *j, const char *tmp_dir) {
  char abs[4096];
  if (!realpath(tmp_dir, abs)) return;
  char note[4200];
  snprintf(note, sizeof note, "%s/" SPILL_NOTE, j->dir);
  FILE *f = fopen(note, "w");
  if (!f) return; /* only a kill -9 or hfg_build_abandon would miss it */
  fprintf(f, "%d\n%s\n", (int)getpid(), abs);
  if (j->made_from[0]) fprintf(f, "+%s\n", j->made_from); /* gone again after a failure */
  fclose(f);
}

static void drop_spill_note(job *j) {
  char note[4200];
  snprintf(note, sizeof note, "%s/" SPILL_NOTE, j->dir);
  unlink(note);
}

static int stage_path(const char *out, char *buf, size_t cap) {
  size_t n = strlen(out);
  while (n > 1 && out[n - 1] == '/') n--;
  size_t b = n;
  while (b > 0 && out[b - 1] != '/') b--;
  size_t nl = n - b;
  if (nl == 0 || (nl == 1 && out[b] == '.') || (nl == 2 && !memcmp(out + b, "..", 2))) return -1;
  int w = snprintf(buf, cap, "%.*s.%.*s.hfilegen-staging", (int)b, out, (int)nl, out + b);
  return w < 0 || (size_t)w >= cap ? -1 : 0;
}

static int stage_out(job *j) {
  const char *out = j->o->out_dir;
  j->lock_fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (j->lock_fd < 0)
    return fail(j, HFG_EIO, "cannot open the output directory %s: %s", out, strerror(errno));
  if (flock(j->lock_fd, LOCK_EX | LOCK_NB))
    return fail(j, HFG_EINVAL, "output directory %s is in use by another hfilegen job", out);
  if (stage_path(out, j->stage, sizeof j->stage)) return 0;
  int sfd = open(j->stage, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (sfd >= 0) {
    /* left by a killed job (unlocked), or a running job's (locked) */
    int busy = flock(sfd, LOCK_EX | LOCK_NB) != 0;
    if (!busy) {
      rm_bytes = 0;
      remove_stale_spills(j->stage);
      nftw(j->stage, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
      j->sum->stale_bytes = rm_bytes;
      snprintf(j->sum->staging, sizeof j->sum->staging, "%s", j->stage);
    }
    close(sfd);
    if (busy)
      return fail(j, HFG_EINVAL, "output directory %s is in use by another hfilegen job (%s)",
                  out, j->stage);
  }
  int e = hfg_io_rename(out, j->stage);
  if (e == -EXDEV || e == -EBUSY || e == -EINVAL || e == -EPERM || e == -EACCES) return 0;
  if (e)
    return fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "rename %s to %s: %s", out, j->stage,
                strerror(-e));
  j->staged = 1;
  snprintf(j->dir, sizeof j->dir, "%s", j->stage);
  snprintf(j->sum->staging, sizeof j->sum->staging, "%s", j->stage);
  return 0;
}

/* A path the user gave inside the output directory, as the job sees it. */
void hfg_build_work_path(const job *j, const char *path, char *buf, size_t cap) {
  size_t n = strlen(j->o->out_dir);
  const char *head = "", *tail = path;
  char pa[4200], da[4200];
  if (j->staged && !strncmp(path, j->o->out_dir, n) && path[n] == '/') {
    head = j->dir, tail = path + n;
  } else if (j->staged && !abs_path(path, pa, sizeof pa) && !abs_path(j->o->out_dir, da, sizeof da) &&
             !strncmp(pa, da, n = strlen(da)) && pa[n] == '/') {
    head = j->dir, tail = pa + n; /* the same place, spelled otherwise ("/abs/out/x", "./out/x") */
  }
  size_t hl = strlen(head), tl = strlen(tail);
  if (hl + tl >= cap) tl = hl < cap ? cap - 1 - hl : 0; /* cut: the open then fails, naming it */
  if (hl >= cap) hl = cap - 1;
  memcpy(buf, head, hl);
  memcpy(buf + hl, tail, tl);
  buf[hl + tl] = '\0';
}

/* A family directory a failed job left: it holds nothing but '_' files
 * (which completebulkload skips), so a rerun into the same directory may
 * proceed. */
static int idle_dir(const char *out, const char *name) {
  char p[4200];
  snprintf(p, sizeof p, "%s/%s", out, name);
  DIR *d = opendir(p);
  if (!d) return 0;
  struct dirent *de;
  int idle = 1;
  while (idle && (de = readdir(d))) idle = de->d_name[0] == '_' || de->d_name[0] == '.';
  closedir(d);
  return idle;
}

int hfg_build_prepare_out_dir(job *j) {
  const char *out = j->o->out_dir;
  hfg_free(j->made_family);
  j->made_family = hfg_calloc(j->nfamilies ? j->nfamilies : 1, 1);
  if (!j->made_family) return fail(j, HFG_ENOMEM, "out of memory");
  int e = make_dirs(out, j->made_from, sizeof j->made_from);
  if (e)
    return fail(j, e == ENOSPC ? HFG_ENOSPC : HFG_EIO, "cannot create the output directory %s: %s",
                out, strerror(e));
  DIR *d = opendir(out);
  if (!d) return fail(j, HFG_EIO, "cannot read the output directory %s: %s", out, strerror(errno));
  struct dirent *de;
  int busy = 0;
  while ((de = readdir(d)))
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && de->d_name[0] != '_' &&
        !idle_dir(out, de->d_name))
      busy = 1;
  closedir(d);
  char s[4096];
  snprintf(s, sizeof s, "%s/_SUCCESS", out);
  if (busy || access(s, F_OK) == 0)
    return fail(j, HFG_EINVAL,
                "output directory %s is not empty: remove it or choose another (a previous "
                "job's output is never overwritten)",
                out);
  if (stage_out(j)) return j->err.code;
  for (size_t f = 0; f < j->nfamilies; f++) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", j->dir, j->families[f]);
    if (mkdir(dir, 0755) == 0) j->made_family[f] = 1;
    else if (errno != EEXIST) /* named as the user wrote it, not the staging name */
      return fail(j, HFG_EIO, "cannot create the family directory %s/%s: %s", out,
                  j->families[f], strerror(errno));
  }
  return 0;
}

/* ---- after emit: publish ---- */

/* The escaped form of util/escape.h inside a JSON string. Written byte by
 * byte without a buffer: an allocation failure here used to drop the key
 * silently and publish a wrong manifest. */
static void json_str(FILE *f, const uint8_t *p, size_t n) {
  static const char hex[] = "0123456789abcdef";
  fputc('"', f);
  for (size_t i = 0; i < n; i++) {
    uint8_t c = p[i];
    if (c == '\\') fputs("\\\\\\\\", f); /* \\ escaped for JSON */
    else if (c == '"') fputs("\\\"", f);
    else if (c >= 0x20 && c <= 0x7e) fputc(c, f);
    else fprintf(f, "\\\\x%c%c", hex[c >> 4], hex[c & 15]);
  }
  fputc('"', f);
}

static int write_small_file(job *j, const char *name, int (*body)(job *, FILE *)) {
  char tmp[4200], fin[4200];
  snprintf(tmp, sizeof tmp, "%s/_%s.tmp", j->dir, name);
  snprintf(fin, sizeof fin, "%s/%s", j->dir, name);
  FILE *f = fopen(tmp, "w");
  if (!f) return fail(j, HFG_EIO, "%s: %s", tmp, strerror(errno));
  int rc = body ? body(j, f) : 0;
  if (fflush(f) || ferror(f)) rc = fail(j, HFG_EIO, "%s: write: %s", tmp, strerror(errno));
  if (!rc) {
    int e = hfg_io_fsync(fileno(f));
    if (e) rc = fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "%s: fsync: %s", tmp, strerror(-e));
  }
  fclose(f);
  if (!rc) {
    int e = hfg_io_rename(tmp, fin);
    if (e) rc = fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "rename %s: %s", tmp, strerror(-e));
  }
  if (rc) unlink(tmp);
  return rc;
}

void hfg_build_json_text(FILE *f, const char *s) {
  json_str(f, (const uint8_t *)s, strlen(s));
}

static int manifest_body(job *j, FILE *f) {
  fprintf(f, "{\n  \"null_values\": %llu,", (unsigned long long)j->sum->null_values);
  if (j->o->check_column) {
    /* the next run's --last-value-from: continue after the largest value read */
    fprintf(f, "\n  \"incremental\": {\"mode\": \"%s\", \"check_column\": ",
            j->o->incremental_mode == HFG_INCR_LASTMODIFIED ? "lastmodified" : "append");
    json_str(f, (const uint8_t *)j->o->check_column, strlen(j->o->check_column));
    fprintf(f, ", \"last_value\": ");
    if (j->sum->check_max[0])
      json_str(f, (const uint8_t *)j->sum->check_max, strlen(j->sum->check_max));
    else
      fputs("null", f);
    /* rows whose check column is NULL: loaded (a first night reads every row), or never
     * selected by "col > last_value" and so not loaded */
    fprintf(f, ", \"null_check_loaded\": %llu, \"null_check_not_loaded\": %llu},",
            (unsigned long long)j->sum->check_nulls_read,
            (unsigned long long)j->sum->check_nulls_skipped);
  }
  if (j->changes) {
    /* a changes load (format-specs/nightly-loads.md): the cells by type */
    const hfg_build_summary *s = j->sum;
    fprintf(f, "\n  \"changes\": {\"puts\": %llu, \"column_deletes\": %llu, \"row_deletes\": "
               "%llu, \"family_deletes\": %llu, \"deletes_read\": %llu, "
               "\"deletes_superseded\": %llu},",
            (unsigned long long)s->put_cells, (unsigned long long)s->column_deletes,
            (unsigned long long)s->row_deletes, (unsigned long long)s->family_deletes,
            (unsigned long long)s->deletes_read, (unsigned long long)s->deletes_superseded);
  }
  if (j->manifest_extra) j->manifest_extra(f, j->manifest_ctx);
  fprintf(f, "\n  \"timestamp\": %lld,\n  \"regions\": %zu,\n", (long long)j->ts,
          j->splits.n + 1);
  /* the counts as the summary gives them: read = written + rejected + duplicates dropped +
   * without cells (written is summed here: the summary's total comes after publish) */
  const hfg_build_summary *s = j->sum;
  uint64_t written = 0;
  for (size_t r = 0; r < s->nregions; r++) written += s->regions[r].rows;
  fprintf(f,
          "  \"records_read\": %llu,\n  \"records_written\": %llu,\n  \"records_rejected\": "
          "%llu,\n  \"duplicates_dropped\": %llu,\n  \"records_without_cells\": %llu,\n",
          (unsigned long long)s->records_read, (unsigned long long)written,
          (unsigned long long)s->records_rejected, (unsigned long long)s->duplicates_dropped,
          (unsigned long long)s->records_without_cells);
  fprintf(f, "  \"blank_lines\": %llu,\n", (unsigned long long)s->blank_lines);
  if (j->o->empty_row == HFG_EMPTY_ROW_MARKER) {
    fprintf(f, "  \"empty_row\": \"marker\",\n  \"marker_family\": ");
    json_str(f, (const uint8_t *)j->families[j->marker_family],
             strlen(j->families[j->marker_family]));
    fprintf(f, ",\n  \"marker_qualifier\": ");
    json_str(f, (const uint8_t *)j->marker_qualifier, j->marker_qualifier_len);
    fprintf(f, ",\n  \"marker_rows\": %llu,\n", (unsigned long long)s->marker_rows);
  } else {
    fprintf(f, "  \"empty_row\": \"skip\",\n");
  }
  fprintf(f, "  \"files\": [");
  for (size_t i = 0; i < j->nfiles; i++) {
    outfile *o = &j->files[i];
    fprintf(f, "%s\n    {\"family\": ", i ? "," : "");
    json_str(f, (const uint8_t *)j->families[o->family], strlen(j->families[o->family]));
    fprintf(f, ", \"file\": \"%s/%s\", \"region\": %zu, \"region_start\": ", j->families[o->family],
            o->name, o->region);
    if (o->region == 0) json_str(f, (const uint8_t *)"", 0);
    else json_str(f, j->splits.key[o->region - 1], j->splits.len[o->region - 1]);
    fprintf(f, ", \"region_end\": ");
    if (o->region == j->splits.n) json_str(f, (const uint8_t *)"", 0);
    else json_str(f, j->splits.key[o->region], j->splits.len[o->region]);
    fprintf(f, ", \"first_row\": ");
    json_str(f, o->first_row, o->first_len);
    fprintf(f, ", \"last_row\": ");
    json_str(f, o->last_row, o->last_len);
    fprintf(f, ", \"cells\": %llu, \"bytes\": %llu}", (unsigned long long)o->cells,
            (unsigned long long)o->bytes);
  }
  fprintf(f, "\n  ],\n  \"splits_source\": ");
  char src[4200];
  if (j->o->splits_file) snprintf(src, sizeof src, "file %s", j->o->splits_file);
  else snprintf(src, sizeof src, "%s",
                j->o->splits_source ? j->o->splits_source : "one region (no split keys)");
  json_str(f, (const uint8_t *)src, strlen(src));
  fprintf(f, ",\n  \"splits\": [");
  for (size_t k = 0; k < j->splits.n; k++) {
    fputs(k ? ", " : "", f);
    json_str(f, j->splits.key[k], j->splits.len[k]);
  }
  fprintf(f, "]\n}\n");
  return 0;
}

/* Regions finish in any order; the manifest lists files by region, family, sequence. */
static int outfile_cmp(const void *a, const void *b) {
  const outfile *x = a, *y = b;
  if (x->region != y->region) return x->region < y->region ? -1 : 1;
  if (x->family != y->family) return x->family < y->family ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Renames the staging directory to the output directory: the families,
 * manifest.json and _SUCCESS become visible together. */
static int unstage(job *j) {
  const char *out = j->o->out_dir;
  int e = hfg_io_rename(j->stage, out);
  if (e)
    return fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "publish: rename %s to %s: %s", j->stage,
                out, strerror(-e));
  j->staged = 0;
  char parent[4096];
  const char *slash = strrchr(j->stage, '/');
  snprintf(parent, sizeof parent, "%.*s", slash ? (int)(slash - j->stage + 1) : 1,
           slash ? j->stage : ".");
  e = hfg_io_fsync_dir(parent);
  if (e) {
    /* not durable: take it back out of sight, the caller rolls back */
    if (rename(out, j->stage) == 0) j->staged = 1;
    return fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "publish: %s: fsync: %s", parent,
                strerror(-e));
  }
  return 0;
}

/* A family folder the job made and wrote no file to (every column --map'ped to
 * another family) is not published: completebulkload would take an empty folder
 * for a family of the table. A folder that was there before the job stays. */
static int family_has_file(const job *j, size_t f) {
  for (size_t i = 0; i < j->nfiles; i++)
    if (j->files[i].family == f) return 1;
  return 0;
}

int hfg_build_publish(job *j) {
  if (j->nfiles) qsort(j->files, j->nfiles, sizeof *j->files, outfile_cmp); /* NULL when none */
  size_t done = 0;
  int rc = 0;
  for (; done < j->nfiles && !rc; done++) {
    int e = hfg_io_rename(j->files[done].tmp_path, j->files[done].final_path);
    if (e)
      rc = fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "publish %s: %s", j->files[done].tmp_path,
                strerror(-e));
  }
  if (rc) {
    /* roll back what became visible: nothing loadable may stay */
    for (size_t i = 0; i + 1 < done; i++) unlink(j->files[i].final_path);
    return rc;
  }
  for (size_t f = 0; f < j->nfamilies && !rc; f++) {
    char dir[4200];
    snprintf(dir, sizeof dir, "%s/%s", j->dir, j->families[f]);
    if (!family_has_file(j, f) && j->made_family && j->made_family[f] && rmdir(dir) == 0) {
      j->made_family[f] = 0;
      continue;
    }
    int e = hfg_io_fsync_dir(dir);
    if (e) rc = fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "%s: fsync: %s", dir, strerror(-e));
  }
  if (!rc) rc = write_small_file(j, "manifest.json", manifest_body);
  if (!rc) rc = write_small_file(j, "_SUCCESS", NULL);
  if (!rc) drop_spill_note(j);
  if (!rc) {
    int e = hfg_io_fsync_dir(j->dir);
    if (e) rc = fail(j, e == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "%s: fsync: %s", j->dir, strerror(-e));
  }
  if (!rc && j->staged) rc = unstage(j);
  if (rc) {
    for (size_t i = 0; i < j->nfiles; i++) unlink(j->files[i].final_path);
    const char *names[] = {"manifest.json", "_SUCCESS"};
    for (size_t i = 0; i < 2; i++) {
      char m[4200];
      snprintf(m, sizeof m, "%s/%s", j->dir, names[i]);
      unlink(m);
    }
  }
  return rc;
}

/* ---- a failed job ---- */

void hfg_build_cleanup_failed(job *j) {
  for (size_t i = 0; i < j->nfiles; i++) {
    struct stat st;
    if (stat(j->files[i].tmp_path, &st) == 0 && unlink(j->files[i].tmp_path) == 0)
      j->sum->removed_bytes += (uint64_t)st.st_size;
  }
}

int hfg_build_check_tmp_dir(job *j, const char *dir) {
  const char *shown = j->o->tmp_dir ? j->o->tmp_dir : dir;
  char probe[4200];
  snprintf(probe, sizeof probe, "%s/_hfilegen-%d-probe", dir, (int)getpid());
  int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return fail(j, errno == ENOSPC ? HFG_ENOSPC : HFG_EIO,
                "temporary directory %s (spill runs go there): %s", shown, strerror(errno));
  close(fd);
  unlink(probe);
  return 0;
}

/* After the spill files are gone: a failed job's directory comes back and
 * then, empty family directories and all, goes back to what it was before the
 * job (absent, empty, or holding what it held), but for the rejects file the
 * job keeps; the lock goes last. One rule for build, rekey and the batch
 * driver: "nothing was published" means the output path is as it was. */
void hfg_build_release_out_dir(job *j, int failed) {
  hfg_build_summary *sum = j->sum;
  const hfg_build_options *o = j->o;
  drop_spill_note(j);
  int back = 1;
  if (j->staged && rename(j->stage, o->out_dir)) {
    back = 0; /* the user is told where it is; left alone */
    size_t l = strlen(sum->error);
    snprintf(sum->error + l, sizeof sum->error - l, " (the output directory is left at %s)",
             j->stage);
  }
  if (failed && back) {
    for (size_t f = 0; j->made_family && f < j->nfamilies; f++) {
      if (!j->made_family[f]) continue;
      char dir[4200];
      snprintf(dir, sizeof dir, "%s/%s", o->out_dir, j->families[f]);
      rmdir(dir); /* fails, and keeps it, unless it is empty */
    }
    unmake_dirs(o->out_dir, j->made_from);
  }
  hfg_free(j->made_family);
  j->made_family = NULL;
  if (j->lock_fd >= 0) close(j->lock_fd);
}

/* ---- abandoned: the caller exits before hfg_build_run returns ---- */

/* The '_' files (temporary HFiles) in dir's subdirectories (the families). */
static void remove_temporaries(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    char sub[4400];
    snprintf(sub, sizeof sub, "%s/%s", dir, de->d_name);
    DIR *f = opendir(sub);
    if (!f) continue; /* a file */
    struct dirent *fe;
    while ((fe = readdir(f))) {
      if (fe->d_name[0] != '_') continue;
      char p[4700];
      snprintf(p, sizeof p, "%s/%s", sub, fe->d_name);
      struct stat st;
      if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && unlink(p) == 0)
        rm_bytes += (uint64_t)st.st_size;
    }
    closedir(f);
  }
  closedir(d);
}

uint64_t hfg_build_abandon(const hfg_build_options *o, char *staging, size_t cap) {
  char stage[4096], spills[4096], away[4200], made[4096];
  int pid, me = (int)getpid();
  rm_bytes = 0;
  if (staging && cap) staging[0] = '\0';
  if (!o || !o->out_dir) return 0;
  if (!stage_path(o->out_dir, stage, sizeof stage) &&
      !read_note(stage, &pid, spills, sizeof spills, made, sizeof made) && pid == me) {
    /* renamed out of the job's sight first: publishing cannot finish after this */
    snprintf(away, sizeof away, "%s-%d", stage, me);
    if (rename(stage, away) == 0) {
      remove_spills(spills, me);
      nftw(away, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
      /* as a failed job leaves it: back empty, or gone when the job created it */
      if (made[0]) unmake_dirs(o->out_dir, made);
      else mkdir(o->out_dir, 0755);
      if (staging && cap) snprintf(staging, cap, "%s", stage);
    }
  } else if (!read_note(o->out_dir, &pid, spills, sizeof spills, NULL, 0) && pid == me) {
    /* not staged (a mount point...): the job works in the output directory */
    remove_spills(spills, me);
    remove_temporaries(o->out_dir);
    char note[4200];
    snprintf(note, sizeof note, "%s/" SPILL_NOTE, o->out_dir);
    unlink(note);
  } else if (o->tmp_dir) {
    remove_spills(o->tmp_dir, me); /* before the output directory was taken: a probe at most */
  }
  return rm_bytes;
}
