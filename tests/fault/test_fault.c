/*
 * SQLite-style fault injection over the two operations a night-time bulk load
 * depends on: a whole hfg_build_run (multi-region, two families, tiny memory
 * budget so it spills, rolled files, a rejected record, a dropped duplicate)
 * and a single HFile write (multi-level index, chunked blooms); the build again
 * as a changes load (format-specs/nightly-loads.md: soft deletes, hard deletes
 * from a second input, some superseded by live rows).
 *
 * For N = 1, 2, ... the Nth allocation (src/util/alloc.h) or the Nth
 * write/fsync/rename (src/util/fsio.h, with EIO and with ENOSPC) fails, until
 * the operation succeeds without the fault being delivered. For every N:
 *   - the operation fails with a non-empty message (I/O faults: naming the
 *     file and the errno's text), or, when it succeeds although the fault
 *     fired, its output is byte-identical to a fault-free run;
 *   - after a failed build the output directory holds directories and the
 *     rejects file only (no _SUCCESS, no HFile, no temporary), the spill
 *     directory is empty, and no file descriptor is left open;
 *   - after a failed write the HFile does not exist;
 *   - under ASan (the sanitizer build) LeakSanitizer finds no leak after the
 *     iteration (checked per N, so a leak names its fault point).
 * Allocations inside libraries (zlib, zstd, libyaml, stdio buffers) do not go
 * through the hook and are not covered. Prints the number of fault points.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hfilegen/build.h"
#include "hfilegen/reader.h"
#include "hfilegen/writer.h"
#include "t.h"
#include "util/alloc.h"
#include "util/fsio.h"

T_MAIN

#if defined(__SANITIZE_ADDRESS__)
/* A full leak check stops the world and takes tens of milliseconds: run it
 * only when the heap grew since the last check (cheap to ask). */
int __lsan_do_recoverable_leak_check(void);
size_t __sanitizer_get_current_allocated_bytes(void);
static size_t heap_mark;
static int leaked(void) {
  size_t now = __sanitizer_get_current_allocated_bytes();
  if (heap_mark && now <= heap_mark) return 0;
  int bad = __lsan_do_recoverable_leak_check() != 0;
  heap_mark = __sanitizer_get_current_allocated_bytes();
  return bad;
}
#else
static int leaked(void) { return 0; }
#endif

/* ---- scratch directory helpers ---- */

static char root[512];

/* A memory file system when there is one: every build fsyncs a dozen files,
 * and the faults are injected, not real. HFG_TEST_TMPDIR overrides. */
static void setup_root(void) {
  if (root[0]) return;
  const char *base = getenv("HFG_TEST_TMPDIR");
  if (!base || !base[0]) base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
  snprintf(root, sizeof root, "%s/hfg-fault-XXXXXX", base && base[0] ? base : "/tmp");
  if (!mkdtemp(root)) {
    perror("mkdtemp");
    exit(2);
  }
}

static int rm_cb(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)flag, (void)ftw;
  return remove(p) ? -1 : 0;
}

static void rm_rf(const char *p) { nftw(p, rm_cb, 16, FTW_DEPTH | FTW_PHYS); }

__attribute__((destructor)) static void cleanup_root(void) {
  if (root[0]) rm_rf(root);
}

static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  while (readdir(d)) n++;
  closedir(d);
  return n;
}

/* Files (not directories) below dir, each reported unless `allowed` says so.
 * Returns the count of files not allowed; writes the first one to first. */
static const char *walk_allowed;
static int walk_bad;
static char walk_first[1024];
static int walk_cb(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)ftw;
  if (flag == FTW_D || flag == FTW_DP) return 0;
  if (walk_allowed && !strcmp(p, walk_allowed)) return 0;
  if (!walk_bad++) snprintf(walk_first, sizeof walk_first, "%s", p);
  return 0;
}
static int stray_files(const char *dir, const char *allowed) {
  walk_allowed = allowed;
  walk_bad = 0;
  walk_first[0] = 0;
  nftw(dir, walk_cb, 16, FTW_PHYS);
  return walk_bad;
}

static uint8_t *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *p = malloc((size_t)n + 1);
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *len = (size_t)n;
  return p;
}

/* 1 when every file below a is in b with the same bytes and vice versa. */
static int same_file(const char *a, const char *b) {
  size_t la, lb;
  uint8_t *pa = slurp(a, &la), *pb = slurp(b, &lb);
  int same = pa && pb && la == lb && !memcmp(pa, pb, la);
  free(pa);
  free(pb);
  return same;
}
static const char *cmp_other_root, *cmp_this_root;
static int cmp_bad;
static int cmp_cb(const char *p, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st, (void)ftw;
  if (flag != FTW_F) return 0;
  char q[2048];
  snprintf(q, sizeof q, "%s%s", cmp_other_root, p + strlen(cmp_this_root));
  if (!same_file(p, q)) {
    if (!cmp_bad) fprintf(stderr, "  differs: %s vs %s\n", p, q);
    cmp_bad++;
  }
  return 0;
}
static int same_tree(const char *a, const char *b) {
  cmp_bad = 0;
  cmp_this_root = a, cmp_other_root = b;
  nftw(a, cmp_cb, 16, FTW_PHYS);
  cmp_this_root = b, cmp_other_root = a;
  nftw(b, cmp_cb, 16, FTW_PHYS);
  return cmp_bad == 0;
}

/* ---- the build under test ---- */

static char input_path[600], splits_path[600], deletes_path[600];
static int g_changes; /* the build under test is a changes load */

static void write_inputs(void) {
  setup_root();
  snprintf(input_path, sizeof input_path, "%s/in.csv", root);
  snprintf(splits_path, sizeof splits_path, "%s/splits.txt", root);
  FILE *f = fopen(input_path, "w");
  FILE *s = fopen(splits_path, "w");
  if (!f || !s) exit(2);
  fputs("1\n2\n", s);
  fclose(s);
  snprintf(deletes_path, sizeof deletes_path, "%s/deleted.csv", root);
  FILE *d = fopen(deletes_path, "w");
  if (!d) exit(2);
  fputs("deleted_at,id\n", d); /* hard deletes: live ids (superseded) and gone ones */
  for (int i = 0; i < 900; i += 7) fprintf(d, "x,%d\n", i);
  fclose(d);
  fputs("id,user,amount,status,note,gone\n", f);
  uint32_t x = 12345;
  for (int i = 0; i < 800; i++) {
    x = x * 1103515245u + 12345u;
    int notelen = 200 + (int)(x >> 20) % 200;
    fprintf(f, "%d,u%u,%u.%02u,%s,\"", i, (x >> 8) % 1000, (x >> 4) % 5000, x % 100,
            (x >> 3) % 3 == 0 ? "PAID" : "NEW");
    for (int k = 0; k < notelen; k++) fputc('a' + (char)((x >> (k % 24)) % 26), f);
    fputs(i % 97 == 5 ? "\"\"quoted\"\"\"" : "\"", f);
    fputs(i % 5 == 2 ? ",1\n" : ",0\n", f); /* a soft delete for the changes load */
    if (i == 400) fputs("bad,record\n", f);                  /* rejected: field count */
    if (i == 700) fprintf(f, "%d,dup,1.00,NEW,again,0\n", i); /* duplicate, last one kept */
  }
  fclose(f);
}

static const char *const MAPS[] = {"note=d:note", "status=d:status", "amount=cf:amount:double"};

static void build_options(hfg_build_options *o, const char *const *inputs, const char *out,
                          const char *tmp) {
  hfg_build_options_init(o);
  o->inputs = inputs;
  o->ninputs = 1;
  o->rowkey = "{id % 3}|{id}";
  o->splits_file = splits_path;
  o->out_dir = out;
  o->tmp_dir = tmp;
  o->mappings = MAPS;
  o->nmappings = sizeof MAPS / sizeof *MAPS;
  o->timestamp = 1720695600000;
  o->on_duplicate = HFG_DUP_LAST;
  o->max_rejects = 10;
  o->memory = 1;               /* clamped to the sorter's minimum: it spills */
  o->threads = 1;              /* the Nth fault lands at the same point every run */
  o->max_file_size = 60 << 10; /* several files per region and family */
  o->hfile.block_size = 8192;
  o->hfile.index_block_max_size = 512;
  o->hfile.index_min_entries = 2;
  o->hfile.bloom_block_size = 1024;
  o->hfile.create_time = 0;
  if (g_changes) {
    o->delete_if = "gone"; /* a fifth of the rows are deleted ones */
    o->deletes = deletes_path;
  }
}

static int mkdir_p(const char *p) { return mkdir(p, 0755) && errno != EEXIST ? -1 : 0; }

/* One build run in fresh out/tmp dirs under root/<tag>. */
static int run_build(const char *tag, char *out, size_t outcap, char *tmp, size_t tmpcap,
                     hfg_build_summary *sum) {
  snprintf(out, outcap, "%s/%s-out", root, tag);
  snprintf(tmp, tmpcap, "%s/%s-tmp", root, tag);
  rm_rf(out);
  rm_rf(tmp);
  mkdir_p(tmp);
  const char *inputs[1] = {input_path};
  hfg_build_options o;
  build_options(&o, inputs, out, tmp);
  return hfg_build_run(&o, sum);
}

static char ref_outs[2][700]; /* plain, changes */
#define ref_out ref_outs[g_changes]
static hfg_build_summary ref_sum;

static void reference_build(void) {
  if (ref_out[0]) return;
  if (!input_path[0]) write_inputs();
  char tmp[700];
  int rc = run_build(g_changes ? "cref" : "ref", ref_out, sizeof ref_out, tmp, sizeof tmp,
                     &ref_sum);
  if (rc) {
    fprintf(stderr, "reference build failed: %s\n", ref_sum.error);
    exit(2);
  }
  hfg_build_summary_free(&ref_sum);
}

TEST(reference_build_is_interesting) {
  reference_build();
  printf("reference build: %llu read, %llu written, %llu rejected, %llu duplicates, %llu files, "
         "%zu regions, %zu spill runs\n",
         (unsigned long long)ref_sum.records_read, (unsigned long long)ref_sum.records_written,
         (unsigned long long)ref_sum.records_rejected,
         (unsigned long long)ref_sum.duplicates_dropped, (unsigned long long)ref_sum.files,
         ref_sum.nregions, ref_sum.spill_runs);
  CHECK(ref_sum.spill_runs >= 1);
  CHECK_EQ_INT(ref_sum.nregions, 3);
  CHECK(ref_sum.files > 6); /* two families, three regions, rolled */
  CHECK_EQ_INT(ref_sum.records_rejected, 1);
  CHECK_EQ_INT(ref_sum.duplicates_dropped, 1);
  CHECK_EQ_INT(ref_sum.records_read,
               ref_sum.records_written + ref_sum.records_rejected + ref_sum.duplicates_dropped);
  char s[800];
  snprintf(s, sizeof s, "%s/_SUCCESS", ref_out);
  CHECK(access(s, F_OK) == 0);
}

enum { FAULT_ALLOC, FAULT_IO };

static void arm(int kind, long n, int err_no) {
  if (kind == FAULT_ALLOC) hfg_fault_alloc_arm(n);
  else hfg_fault_io_arm(n, err_no);
}
static int fired(int kind) {
  return kind == FAULT_ALLOC ? hfg_fault_alloc_fired() : hfg_fault_io_fired();
}

/* Checks one failed build; returns 0 when everything holds. */
static int check_failed_build(long n, int rc, const hfg_build_summary *sum, const char *out,
                              const char *tmp, int kind, int err_no) {
  int bad = 0;
  if (rc >= 0 || !sum->error[0]) {
    fprintf(stderr, "  N=%ld: failed build returned %d with message '%s'\n", n, rc, sum->error);
    bad++;
  }
  if (kind == FAULT_ALLOC && rc != HFG_ENOMEM) {
    fprintf(stderr, "  N=%ld: allocation failure reported as %s: %s\n", n, hfg_status_name(rc),
            sum->error);
    bad++;
  }
  if (kind == FAULT_IO) {
    /* the message names the file (a path under root) and the errno's text */
    if (!strstr(sum->error, root) || !strstr(sum->error, strerror(err_no))) {
      fprintf(stderr, "  N=%ld: I/O failure message lacks the path or '%s': %s\n", n,
              strerror(err_no), sum->error);
      bad++;
    }
    if (err_no == ENOSPC && rc != HFG_ENOSPC && !strstr(sum->error, "rename")) {
      fprintf(stderr, "  N=%ld: ENOSPC reported as %s: %s\n", n, hfg_status_name(rc), sum->error);
      bad++;
    }
  }
  char rejects[800];
  snprintf(rejects, sizeof rejects, "%s/_rejects.tsv", out);
  if (stray_files(out, rejects)) {
    fprintf(stderr, "  N=%ld: %d file(s) left in the output dir, e.g. %s (error: %s)\n", n,
            walk_bad, walk_first, sum->error);
    bad++;
  }
  char stage[800];
  snprintf(stage, sizeof stage, "%s/.%s.hfilegen-staging", root, strrchr(out, '/') + 1);
  if (access(stage, F_OK) == 0) {
    fprintf(stderr, "  N=%ld: the output directory was not put back (%s)\n", n, sum->error);
    bad++;
  }
  if (stray_files(tmp, NULL)) {
    fprintf(stderr, "  N=%ld: %d file(s) left in the spill dir, e.g. %s\n", n, walk_bad,
            walk_first);
    bad++;
  }
  return bad;
}

/* Loops N = 1.. over the build; returns the number of fault points. */
static long fault_loop_build(int kind, int err_no, const char *what) {
  reference_build();
  int fds = open_fds();
  long n, failures = 0, swallowed = 0;
  for (n = 1; n < 100000 && failures < 5; n++) {
    char out[700], tmp[700];
    hfg_build_summary sum;
    arm(kind, n, err_no);
    int rc = run_build("f", out, sizeof out, tmp, sizeof tmp, &sum);
    int hit = fired(kind);
    arm(kind, 0, 0);
    if (rc == 0) {
      /* a fault that fired without failing the build must not change the output */
      if (!same_tree(out, ref_out)) {
        fprintf(stderr, "  N=%ld: build succeeded after the fault but the output differs\n", n);
        failures++;
      }
      if (hit) swallowed++;
    } else {
      failures += check_failed_build(n, rc, &sum, out, tmp, kind, err_no);
    }
    hfg_build_summary_free(&sum);
    if (open_fds() != fds) {
      fprintf(stderr, "  N=%ld: %d file descriptors open, %d before\n", n, open_fds(), fds);
      fds = open_fds();
      failures++;
    }
    if (leaked()) {
      fprintf(stderr, "  N=%ld: memory leaked (see the LeakSanitizer report above)\n", n);
      failures++;
    }
    if (rc == 0 && !hit) break;
  }
  CHECK_EQ_INT(failures, 0);
  printf("build, %s: %ld fault points (%ld faults absorbed with identical output)\n", what, n - 1,
         swallowed);
  return n - 1;
}

TEST(build_alloc_faults) { CHECK(fault_loop_build(FAULT_ALLOC, 0, "allocation") > 50); }
TEST(build_io_faults_eio) { CHECK(fault_loop_build(FAULT_IO, EIO, "write/fsync/rename EIO") > 20); }
TEST(build_io_faults_enospc) {
  CHECK(fault_loop_build(FAULT_IO, ENOSPC, "write/fsync/rename ENOSPC") > 20);
}
/* the same build as a changes load: typed cells, DeleteFamily rows, tombstones */
TEST(changes_build_faults) {
  g_changes = 1;
  reference_build();
  printf("changes reference build: %llu puts, %llu rows deleted, %llu of %llu hard deletes "
         "superseded\n", (unsigned long long)ref_sum.put_cells,
         (unsigned long long)ref_sum.row_deletes, (unsigned long long)ref_sum.deletes_superseded,
         (unsigned long long)ref_sum.deletes_read);
  CHECK(ref_sum.row_deletes > 100 && ref_sum.deletes_superseded > 50 && ref_sum.put_cells > 1000);
  CHECK(fault_loop_build(FAULT_ALLOC, 0, "changes load, allocation") > 50);
  CHECK(fault_loop_build(FAULT_IO, EIO, "changes load, write/fsync/rename EIO") > 20);
  g_changes = 0;
}

/* ---- a single HFile write ---- */

typedef struct wconf {
  const char *name;
  hfg_codec codec;
  hfg_bloom_type bloom;
} wconf;

static const wconf WCONFS[] = {
    {"none+row", HFG_CODEC_NONE, HFG_BLOOM_ROW},
    {"gz+rowcol", HFG_CODEC_GZ, HFG_BLOOM_ROWCOL},
};

/* Writes 1500 cells; returns 0 or the failing code with the message in msg. */
static int write_one(const wconf *c, const char *path, char *msg, size_t cap) {
  hfg_writer_options wo = HFG_WRITER_OPTIONS_INIT;
  wo.codec = c->codec;
  wo.bloom = c->bloom;
  wo.block_size = 512;
  wo.index_block_max_size = 128;
  wo.index_min_entries = 2;
  wo.bloom_block_size = 64;
  wo.bulkload_timestamp = 1;
  wo.write_chunk = 1000; /* many writes, each chunk made of several blocks or inside one */
  hfg_writer *w = NULL;
  int rc = hfg_writer_open(path, "cf", &wo, &w);
  for (int i = 0; !rc && i < 750; i++) {
    char row[32], val[64];
    int rl = snprintf(row, sizeof row, "row%06d", i);
    int vl = snprintf(val, sizeof val, "value-%d-%d", i, i * 7919);
    for (int q = 0; !rc && q < 2; q++) {
      hfg_cell cell = {(const uint8_t *)row, (size_t)rl, (const uint8_t *)"cf", 2,
                       (const uint8_t *)(q ? "b" : "a"), 1, 1000 + i, HFG_TYPE_PUT,
                       (const uint8_t *)val, (size_t)vl, NULL, 0};
      rc = hfg_writer_append(w, &cell);
    }
  }
  if (!rc) rc = hfg_writer_finish(w);
  if (rc) {
    /* a writer that could not even be allocated has no message (writer.h) */
    snprintf(msg, cap, "%s", w ? hfg_writer_errmsg(w) : rc == HFG_ENOMEM ? "no writer" : "");
    /* errors are sticky */
    if (w && hfg_writer_status(w) != rc) snprintf(msg, cap, "status changed");
  }
  hfg_writer_free(w);
  return rc;
}

static long fault_loop_writer(const wconf *c, int kind, int err_no, const char *what) {
  setup_root();
  char path[700], ref[700];
  snprintf(ref, sizeof ref, "%s/w-ref-%s.hfile", root, c->name);
  snprintf(path, sizeof path, "%s/w-%s.hfile", root, c->name);
  char msg[2048];
  if (write_one(c, ref, msg, sizeof msg)) {
    fprintf(stderr, "reference write failed: %s\n", msg);
    CHECK(0);
    return 0;
  }
  hfg_reader *r;
  CHECK_EQ_INT(hfg_reader_open(ref, &r), 0);
  hfg_verify_report rep;
  CHECK_EQ_INT(hfg_verify(r, &rep), 0);
  CHECK(hfg_reader_trailer(r)->num_data_index_levels >= 3);
  hfg_verify_report_free(&rep);
  hfg_reader_close(r);

  int fds = open_fds();
  long n, failures = 0;
  for (n = 1; n < 100000 && failures < 5; n++) {
    msg[0] = 0;
    arm(kind, n, err_no);
    int rc = write_one(c, path, msg, sizeof msg);
    int hit = fired(kind);
    arm(kind, 0, 0);
    if (rc == 0) {
      if (!same_file(path, ref)) {
        fprintf(stderr, "  %s N=%ld: write succeeded after the fault, output differs\n", c->name,
                n);
        failures++;
      }
      unlink(path);
      if (!hit) break;
      continue;
    }
    if (!msg[0] || !strcmp(msg, "status changed")) {
      fprintf(stderr, "  %s N=%ld: failed with %s and message '%s'\n", c->name, n,
              hfg_status_name(rc), msg);
      failures++;
    }
    if (kind == FAULT_ALLOC && rc != HFG_ENOMEM) {
      fprintf(stderr, "  %s N=%ld: allocation failure reported as %s: %s\n", c->name, n,
              hfg_status_name(rc), msg);
      failures++;
    }
    if (kind == FAULT_IO && (!strstr(msg, path) || !strstr(msg, strerror(err_no)) ||
                             rc != (err_no == ENOSPC ? HFG_ENOSPC : HFG_EIO))) {
      fprintf(stderr, "  %s N=%ld: I/O failure reported as %s: %s\n", c->name, n,
              hfg_status_name(rc), msg);
      failures++;
    }
    if (access(path, F_OK) == 0) {
      fprintf(stderr, "  %s N=%ld: the partial file was left behind\n", c->name, n);
      unlink(path);
      failures++;
    }
    if (open_fds() != fds) {
      fprintf(stderr, "  %s N=%ld: file descriptor leaked\n", c->name, n);
      fds = open_fds();
      failures++;
    }
    if (leaked()) {
      fprintf(stderr, "  %s N=%ld: memory leaked (see the LeakSanitizer report above)\n",
              c->name, n);
      failures++;
    }
  }
  CHECK_EQ_INT(failures, 0);
  printf("writer %s, %s: %ld fault points\n", c->name, what, n - 1);
  return n - 1;
}

TEST(writer_alloc_faults) {
  for (size_t i = 0; i < sizeof WCONFS / sizeof *WCONFS; i++)
    CHECK(fault_loop_writer(&WCONFS[i], FAULT_ALLOC, 0, "allocation") > 20);
}

TEST(writer_io_faults) {
  for (size_t i = 0; i < sizeof WCONFS / sizeof *WCONFS; i++) {
    CHECK(fault_loop_writer(&WCONFS[i], FAULT_IO, EIO, "write/fsync EIO") > 20);
    CHECK(fault_loop_writer(&WCONFS[i], FAULT_IO, ENOSPC, "write/fsync ENOSPC") > 20);
  }
}
