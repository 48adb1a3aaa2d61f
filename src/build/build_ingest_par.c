/*
 * Parallel ingest: --threads N workers read, key, build payloads, partition
 * and fill the sorter at once, and the job comes out exactly as the
 * one-thread ingest (build_ingest.c) makes it: the same sorted order, rejects
 * file, --max-rejects error, counters and so the same bytes.
 *
 * Units. The inputs are cut into units, in input order: a plain regular
 * CSV/TSV file into parts of --ingest-chunk bytes (4 MiB), every other input
 * (gzip/zstd/bzip2/xz files, the dump dialects) is one unit, read whole by
 * one worker (decompression is sequential per stream) with a record pump
 * beside it, as the one-thread path has. Workers take the next unit in order
 * (under the mutex) and read it with a part reader of their own
 * (record_part.c).
 *
 * Where a part starts. Part k covers the records that start in [lo, hi).
 * Where a record starts at lo is known only to a reader that read everything
 * before it (a CSV quoted field may hold newlines; a malformed record
 * resynchronises at a line end). So a worker guesses (input/part_start.h: the first
 * line end after lo at which the bytes around it say "outside quotes", from
 * two hypotheses run side by side over a 64 KiB window, as speculative parallel
 * CSV readers do; TSV and the other formats have no quotes: the first line
 * end), reads the part from there with lines numbered from 1, and keeps its
 * keyed records and rejects in buffers. When its turn comes (below) the true
 * start is known: where part k-1 ended, and that part's last line. If the
 * guess was right (the part's first record starts there) every line is
 * shifted by one delta; if not, the buffers are dropped and the part is
 * read again from the true start (counted: ingest_reparsed). The guess only
 * ever costs time, never correctness: the check is exact.
 *
 * Blank lines. A part's reader skips the blank lines past its limit up to
 * the next record, where the next part truly starts, so that part's guessed
 * start may fall among them. A part that starts mid-file therefore does not
 * count the blank lines before its first record (record_reader.h), and one
 * read again counts afresh: the parts' counts add up to the one-thread count.
 *
 * Order. Units commit one after the other, in input order: the rejects go
 * to the rejects file, --max-rejects is checked reject by reject (naming the
 * same record, with the same counts, as the one-thread path), the counters
 * are added, and a unit's fatal read error is raised there — after
 * everything before it, as the one-thread path meets it. Whoever is free
 * commits (one committer at a time, under the mutex), so no worker waits for
 * another's turn: each holds up to two units (results), and a worker, in
 * order of preference, adds a committed part's records to its own sorter
 * part, commits the unit whose turn it is, or reads the next unit. A part's
 * records go to the sorter after its commit (in parallel, by any worker); a
 * whole-input unit adds as it reads and holds only its rejects (1 MiB at
 * most, then it waits for its turn, committing the units before it
 * meanwhile, and writes them). The sorter has one part per worker (sorter.h:
 * own slabs, index and 1/N of the budget, no lock); seq, the tie-break of
 * equal rowkeys, is (unit << 40 | record index in the unit): the input order
 * at every thread count, whichever sorter part holds a record. Each worker
 * sorts its sorter part at the end, in parallel.
 *
 * Memory: per worker two units' buffered records and rejects (about 1.3 ×
 * the part size each) and a reader buffer (256 KiB), or for a whole input a
 * record pump (4 batches of 1 MiB) and 1 MiB of rejects: 3 parts + 320 KiB a
 * worker (5 MiB with whole inputs), taken from the sorter's budget
 * (hfg_sorter_set_parts) up to a quarter of it, so that --memory holds at every
 * thread count (beyond that quarter, with tiny budgets, it is fixed overhead). Parts are 4 MiB, or --memory /
 * (16 × threads) when that is less (at least 256 KiB); --ingest-chunk sets it.
 *
 * Sequential instead (HFG_BUILD_SEQUENTIAL): one thread, a database input
 * (one snapshot, read by the reader it was opened with), no header and no
 * --columns (the field count comes from the first record), more than 4096
 * inputs, an input that is not a regular file (stdin, a pipe: it can be read
 * only once, and the reader that read the header may have read on), or a
 * single unit (one compressed file, a plain file smaller than a part).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "build/build_internal.h"
#include "build/columns.h" /* hfg_build_input_options */
#include "input/part_start.h"
#include "input/record_pump.h"
#include "util/alloc.h"
#include "util/coding.h"
#include "util/escape.h"

#define MAX_CHUNK ((size_t)4 << 20)  /* default part size, when --memory allows */
#define MIN_CHUNK ((size_t)256 << 10)
#define PART_READ_BUFFER ((size_t)256 << 10) /* a part reader's first buffer (it grows) */
#define REJECTS_HELD ((size_t)1 << 20)
#define SEQ_UNIT_SHIFT 40

typedef struct unit {
  size_t input;
  uint64_t lo, hi;   /* a part: the records that start in [lo, hi) */
  int part;          /* a part of a plain file (else the whole input) */
  int last;          /* the input's last part: read to its end */
} unit;

typedef struct par {
  job *j;
  hfg_record_reader *rr;
  hfg_input_options io;
  unit *units;
  size_t nunits;
  size_t next_unit;            /* the next unit to read (under mu) */
  int nulls_possible;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  struct result *res;          /* 2 a worker: units read, waiting for their turn or an adder */
  size_t nres;
  int committing;              /* a worker is committing units (under mu) */
  int has_whole;               /* some unit is a whole input (a record pump) */
  size_t turn;                 /* the unit whose turn it is to commit */
  uint64_t prev_end, prev_line; /* where the last committed part ended, and its line */
  uint64_t input_bytes;        /* of committed units */
  _Atomic uint64_t reparsed;
  double last_progress;
} par;

/* A buffered keyed record: its region (a native uint32), then the record in
 * the sorter's form (sorter.h: length, key length, key, seq, payload), built
 * in place: the buffer can become the sorter's own slab (hfg_sorter_adopt),
 * so that a part's records are not copied again when they are added. */
#define KEYED_HEAD 4

/* A buffered reject: the header, then reason and raw bytes. */
typedef struct rej_head {
  uint64_t idx, line;
  uint32_t reason_len, raw_len;
} rej_head;

/* A unit as read: FREE → READING (its reader) → READY (read, waiting for its
 * turn) → COMMITTED (a part: its records wait for an adder) → ADDING → FREE.
 * A whole input's records go to the sorter as it is read: READY → FREE. */
enum { R_FREE, R_READING, R_READY, R_COMMITTED, R_ADDING };

typedef struct result {
  int state;
  size_t unit;
  hfg_buf keyed, rej;
  size_t rej_at;              /* rej[0, rej_at) is written already (a whole input's turn) */
  uint64_t read, rejected, nulls, long_keys;
  uint64_t first_off, first_line, end_off, end_line, bytes;
  uint64_t delta;             /* lines to add, known at commit */
  uint64_t blank_lines;       /* skipped (a part: not those before its first record) */
  size_t *per_region;         /* a part's keyed records per region (counted as read) */
  size_t *region_bytes;       /* and their bytes in the sorter's form (add_grouped's scratch) */
  size_t nregions_seen;       /* regions with records in the part */
  size_t nregions;
  int fatal;
  char fatal_msg[1024];
} result;

typedef struct worker {
  par *p;
  size_t id;                  /* and its sorter part */
  pthread_t th;
  hfg_buf payload;
  uint8_t key[HBASE_MAX_ROW + 1];
} worker;

static int stopped(const job *j) { return atomic_load(&j->failed) || canceled(j); }

static int commit(worker *wk, struct result *w);
static struct result *find_result(par *p, int state, size_t k);

/* Called locked: when no one commits and the unit whose turn it is is ready,
 * commits it (unlocked meanwhile; one committer at a time) and returns 1 with
 * its result in *rc; else 0. */
static int commit_turn(worker *wk, int *rc) {
  par *p = wk->p;
  struct result *r;
  if (p->committing || (r = find_result(p, R_READY, p->turn)) == NULL) return 0;
  p->committing = 1;
  pthread_mutex_unlock(&p->mu);
  *rc = commit(wk, r);
  pthread_mutex_lock(&p->mu);
  p->committing = 0;
  pthread_cond_broadcast(&p->cv);
  return 1;
}

/* Called locked: waits for a change, at most 20 ms, so that a failure elsewhere
 * is seen within that. */
static void wait_briefly(par *p) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  t.tv_nsec += 20 * 1000 * 1000;
  if (t.tv_nsec >= 1000000000L) t.tv_sec++, t.tv_nsec -= 1000000000L;
  pthread_cond_timedwait(&p->cv, &p->mu, &t);
}

/* Waits until it is unit k's turn, committing the units before it that are
 * ready meanwhile (so that workers waiting for their turns never wait for each
 * other); 0, or -1 when the job stopped. */
static int wait_turn(worker *wk, size_t k) {
  par *p = wk->p;
  pthread_mutex_lock(&p->mu);
  while (p->turn != k && !stopped(p->j)) {
    int rc;
    if (commit_turn(wk, &rc)) {
      if (rc) break;
      continue;
    }
    wait_briefly(p);
  }
  int ok = p->turn == k;
  pthread_mutex_unlock(&p->mu);
  return ok && !stopped(p->j) ? 0 : -1;
}

/* ---- reading a unit ---- */

static int add_reject(result *w, uint64_t idx, const hfg_record *rec, const char *reason) {
  rej_head h = {idx, rec->line, (uint32_t)strlen(reason), (uint32_t)rec->raw_len};
  if (hfg_buf_append(&w->rej, &h, sizeof h) || hfg_buf_append(&w->rej, reason, h.reason_len) ||
      hfg_buf_append(&w->rej, rec->raw, rec->raw_len))
    return HFG_ENOMEM;
  w->rejected++;
  return 0;
}

/* Writes the rejects held from rej_at on (lines + delta) and checks
 * --max-rejects with the counts the one-thread path has at that record. Runs
 * only in the unit's turn. 0, or the job's error. */
static int write_rejects(par *p, result *w, const unit *u, uint64_t delta) {
  job *j = p->j;
  const char *file = hfg_record_reader_input_name(p->rr, u->input);
  while (w->rej_at < w->rej.len) {
    rej_head h;
    memcpy(&h, w->rej.p + w->rej_at, sizeof h);
    const char *reason = (const char *)w->rej.p + w->rej_at + sizeof h;
    const uint8_t *raw = (const uint8_t *)reason + h.reason_len;
    w->rej_at += sizeof h + h.reason_len + h.raw_len;
    uint64_t line = h.line + delta;
    j->sum->records_rejected++;
    if (j->rejects) {
      fprintf(j->rejects, "%s\t%llu\t", file, (unsigned long long)line);
      for (uint32_t i = 0; i < h.reason_len; i++)
        fputc(reason[i] == '\t' || reason[i] == '\n' ? ' ' : reason[i], j->rejects);
      fputc('\t', j->rejects);
      hfg_escape_fputs(j->rejects, raw, h.raw_len);
      fputc('\n', j->rejects);
    }
    if (j->sum->records_rejected > j->o->max_rejects) {
      j->sum->records_read += h.idx + 1; /* as far as the one-thread path reads */
      return fail(j, HFG_EREJECT,
                  "%s line %llu: %.*s (record rejected; %llu rejected > --max-rejects %llu; "
                  "see %s)",
                  file, (unsigned long long)line, (int)h.reason_len, reason,
                  (unsigned long long)j->sum->records_rejected,
                  (unsigned long long)j->o->max_rejects, j->sum->rejects_path);
    }
  }
  return 0;
}

static void reset_unit(result *w) {
  hfg_buf_reset(&w->keyed);
  hfg_buf_reset(&w->rej);
  w->rej_at = 0;
  w->read = w->rejected = w->nulls = w->long_keys = 0;
  w->fatal = 0;
  w->fatal_msg[0] = 0;
  w->first_off = w->first_line = w->end_off = w->end_line = w->bytes = 0;
  w->blank_lines = 0;
  memset(w->per_region, 0, w->nregions * sizeof *w->per_region);
  memset(w->region_bytes, 0, w->nregions * sizeof *w->region_bytes);
  w->nregions_seen = 0;
}

/* Reads unit k from byte start (line there: line) into the worker: a part's
 * keyed records into w->keyed, a whole input's straight into the sorter.
 * Rejects are held in w->rej. 0, or < 0 when the job failed (out of memory,
 * a spill error). A read error of the input is kept in w->fatal for the turn. */
static int read_unit(worker *wk, result *w, size_t k, uint64_t start, uint64_t line) {
  par *p = wk->p;
  job *j = p->j;
  const unit *u = &p->units[k];
  reset_unit(w);
  /* A part's records take about 1.2 times its bytes (budgeted at 1.3, above):
   * room for them at once, so that the buffer does not grow by copies; the
   * pages never written cost nothing, and the buffer is trimmed to its length
   * when it is handed over (add_keyed). */
  if (u->part && u->hi > u->lo) {
    size_t want = (size_t)(u->hi - u->lo) + (size_t)(u->hi - u->lo) / 4;
    if (w->keyed.cap > 2 * want) hfg_buf_trim(&w->keyed, want); /* grown by a long record */
    if (w->keyed.cap < want && hfg_buf_reserve(&w->keyed, want))
      return fail(j, HFG_ENOMEM, "out of memory");
  }
  hfg_record_reader *pr;
  char msg[1024];
  int rc = hfg_record_reader_open_part(p->rr, &p->io, u->input, start, line,
                                       u->part && !u->last ? u->hi : UINT64_MAX, &pr, msg,
                                       sizeof msg);
  if (rc) {
    if (rc == HFG_ENOMEM) return fail(j, rc, "out of memory");
    w->fatal = rc;
    snprintf(w->fatal_msg, sizeof w->fatal_msg, "%s", msg);
    return 0;
  }
  hfg_record_pump *pump = u->part ? NULL : hfg_record_pump_start(pr);
  const uint16_t file_idx = (uint16_t)u->input;
  const uint64_t seq0 = (uint64_t)k << SEQ_UNIT_SHIFT;
  hfg_err e = {0};
  hfg_record rec;
  int got_first = 0;
  while ((rc = pump ? hfg_record_pump_next(pump, &rec) : hfg_record_reader_next(pr, &rec)) != 0) {
    if (rc < 0 && rc != HFG_EPARSE) {
      const char *m = hfg_record_reader_errmsg(pr);
      w->fatal = rc;
      snprintf(w->fatal_msg, sizeof w->fatal_msg, "%s", *m ? m : hfg_strerror(rc));
      break;
    }
    if ((w->read & 0xfff) == 0 && stopped(j)) break;
    if (u->part && !got_first) {
      got_first = 1;
      w->first_off = hfg_record_reader_record_offset(pr, &rec);
      w->first_line = rec.line;
    }
    const uint64_t idx = w->read++;
    char why[512];
    size_t klen = 0;
    uint64_t nulls = 0;
    /* a part's record is laid out in its keyed buffer in the sorter's form, the
     * payload built in place after the key and seq */
    const size_t at = w->keyed.len;
    uint32_t region = 0;
    int erc = HFG_EPARSE;
    if (rc != HFG_EPARSE) {
      erc = hfg_build_rowkey(j, rec.fields, rec.nfields, p->nulls_possible, wk->key, &klen, why,
                             sizeof why);
      if (!erc) region = (uint32_t)hfg_splits_region(&j->splits, wk->key, klen);
      if (!erc && u->part) {
        size_t head = KEYED_HEAD + HFG_SORT_REC_HEADER(klen);
        if (w->keyed.cap - w->keyed.len < head && hfg_buf_reserve(&w->keyed, head)) {
          erc = HFG_ENOMEM;
        } else {
          uint8_t *q = w->keyed.p + at;
          memcpy(q, &region, KEYED_HEAD);
          /* the length is set once the payload is there */
          hfg_rec_put_header(q + KEYED_HEAD, 4, wk->key, klen, seq0 | idx);
          w->keyed.len += head;
        }
      } else if (!erc) {
        hfg_buf_reset(&wk->payload);
        hfg_buf_trim(&wk->payload, (size_t)1 << 20); /* after a long record */
      }
      if (!erc)
        erc = hfg_build_payload(j, rec.fields, rec.line, file_idx,
                                u->part ? &w->keyed : &wk->payload, &nulls, why, sizeof why);
      if (erc && u->part) w->keyed.len = at;
    }
    if (erc == HFG_ENOMEM || (erc == HFG_EPARSE && add_reject(w, idx, &rec,
                                                             rc == HFG_EPARSE
                                                                 ? (rec.reason ? rec.reason
                                                                               : "malformed record")
                                                                 : why))) {
      fail(j, HFG_ENOMEM, "out of memory");
      break;
    }
    if (erc) {
      if (!u->part && w->rej.len - w->rej_at > REJECTS_HELD) {
        /* a whole input holds at most this much: it waits for its turn and writes them */
        if (wait_turn(wk, k) || write_rejects(p, w, u, 0)) break;
      }
      continue;
    }
    w->nulls += nulls;
    if (klen > LONG_KEY) w->long_keys++;
    if (!u->part) {
      if (hfg_sorter_add_part(j->sorter, wk->id, region, wk->key, klen, seq0 | idx,
                              wk->payload.p, wk->payload.len, &e)) {
        fail(j, e.code, "%s", e.msg);
        break;
      }
      continue;
    }
    /* the record's length, now that its payload is there */
    hfg_put_be32(w->keyed.p + at + KEYED_HEAD, (uint32_t)(w->keyed.len - at - KEYED_HEAD - 4));
    w->nregions_seen += w->per_region[region]++ == 0;
    w->region_bytes[region] += w->keyed.len - at - KEYED_HEAD;
  }
  hfg_record_pump_stop(pump);
  hfg_record_reader_part_end(pr, &w->end_off, &w->end_line);
  if (u->part && !got_first) {
    w->first_off = w->end_off;
    w->first_line = w->end_line;
  }
  w->bytes = u->part ? u->hi - u->lo : hfg_record_reader_bytes_read(pr);
  w->blank_lines = hfg_record_reader_blank_lines(pr);
  hfg_record_reader_free(pr);
  return stopped(j) ? -1 : 0;
}

/* The records of a part that holds several regions' records, grouped by
 * region into a slab of their own that the sorter adopts: each record copied
 * once (its line shifted by the part's delta on the way), the keyed buffer
 * kept for the next part. Emit walks one region's records in key order, which
 * for presorted input is their input order: side by side they are read as a
 * stream, where in the part's own order emit strode over the other regions'
 * records, a cache and TLB miss every record or two (the merge and the cell
 * layout waited on them, ~7% of the 1 GB job's cycles). 0 when adopted, 1
 * when the budget has no room (nothing changed: the caller copies the
 * records, which spills), or the job's error. */
static int add_grouped(worker *wk, result *w) {
  job *j = wk->p->j;
  const size_t ng = w->nregions;
  size_t total = 0;
  for (size_t g = 0; g < ng; g++) { /* region_bytes becomes each region's offset */
    size_t b = w->region_bytes[g];
    w->region_bytes[g] = total;
    total += b;
  }
  uint8_t *out = hfg_malloc(total);
  if (!out) return 1; /* the caller's record-by-record copy needs no such block */
  int adopted = hfg_sorter_adopt(j->sorter, wk->id, out, total, w->per_region);
  if (adopted <= 0) {
    hfg_free(out); /* (region_bytes is reset with the next part) */
    return adopted < 0 ? fail(j, adopted, "out of memory") : 1;
  }
#ifdef MADV_POPULATE_WRITE
  /* adopted (within the budget), every byte of it is written next: its pages
   * faulted in by one call rather than one trap each (a kernel without it says
   * EINVAL, and the copy faults them in as before) */
  if (total >= ((size_t)256 << 10)) {
    uintptr_t lo = (uintptr_t)out & ~(uintptr_t)4095, hi = (uintptr_t)out + total;
    (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
  }
#endif
  const uint8_t *buf = w->keyed.p;
  const size_t len = w->keyed.len;
  const uint64_t delta = w->delta;
  size_t ahead = 0; /* as add_keyed: the bytes 2 KiB on are asked for */
  for (size_t at = 0; at < len;) {
    for (; ahead < at + 2048; ahead += 64) __builtin_prefetch(buf + ahead);
    uint32_t region;
    memcpy(&region, buf + at, KEYED_HEAD);
    const uint8_t *r = buf + at + KEYED_HEAD;
    size_t n = 4 + hfg_get_be32(r), plen;
    at += KEYED_HEAD + n;
    uint8_t *d = out + w->region_bytes[region];
    w->region_bytes[region] += n;
    memcpy(d, r, n);
    if (delta) {
      uint8_t *pl = (uint8_t *)hfg_rec_payload(d, n, &plen);
      hfg_put_be64(pl + 8, hfg_get_be64(pl + 8) + delta); /* the payload's line */
    }
    hfg_sorter_add_adopted(j->sorter, wk->id, region, d);
  }
  return 0;
}

/* A committed part's records into the adder's sorter part: grouped by region
 * (add_grouped) when they are of several regions, else the keyed buffer
 * handed over whole when the part's budget has room (the records are already
 * in the sorter's form), else copied record by record (which spills as
 * needed), each record's line shifted by the part's delta on the way. */
static int add_keyed(worker *wk, result *w) {
  job *j = wk->p->j;
  hfg_err e = {0};
  const uint64_t delta = w->delta;
  if (w->keyed.len == 0) return 0;
  if (w->nregions_seen > 1) {
    int rc = add_grouped(wk, w);
    if (rc <= 0) return rc;
  }
  /* a buffer given away goes at its length: the index points into it, so it
   * must not move after this (a shrinking realloc may) */
  uint8_t *buf = w->keyed.p;
  size_t len = w->keyed.len;
  if (w->keyed.cap > len) {
    uint8_t *t = hfg_realloc(buf, len);
    if (t) w->keyed.p = buf = t, w->keyed.cap = len;
  }
  int adopted = w->keyed.cap == len && w->nregions_seen <= 1
                    ? hfg_sorter_adopt(j->sorter, wk->id, buf, len, w->per_region)
                    : 0;
  if (adopted < 0) return fail(j, adopted, "out of memory");
  /* one pass: each record's line shifted by the delta, then indexed (or copied).
   * Each record's place comes from the length before it, a chain of loads that
   * the hardware cannot run ahead of, and the part was written a while ago
   * (or by another core): the bytes 2 KiB on are asked for meanwhile. */
  size_t ahead = 0; /* the bytes before it are asked for */
  for (size_t at = 0, i = 0; at < len; i++) {
    uint32_t region;
    for (; ahead < at + 2048; ahead += 64) __builtin_prefetch(buf + ahead, 1);
    memcpy(&region, buf + at, KEYED_HEAD);
    uint8_t *r = buf + at + KEYED_HEAD;
    size_t n = 4 + hfg_get_be32(r), plen;
    at += KEYED_HEAD + n;
    if (delta) {
      uint8_t *pl = (uint8_t *)hfg_rec_payload(r, n, &plen);
      hfg_put_be64(pl + 8, hfg_get_be64(pl + 8) + delta); /* the payload's line */
    }
    if (adopted) {
      hfg_sorter_add_adopted(j->sorter, wk->id, region, r);
    } else {
      size_t klen = hfg_rec_klen(r);
      const uint8_t *pl = hfg_rec_payload(r, n, &plen);
      if (hfg_sorter_add_part(j->sorter, wk->id, region, hfg_rec_key(r), klen, hfg_rec_seq(r),
                              pl, plen, &e))
        return fail(j, e.code, "%s", e.msg);
      if ((i & 0xffff) == 0 && stopped(j)) return -1;
    }
  }
  if (adopted) w->keyed = (hfg_buf)HFG_BUF_INIT; /* the sorter's now; the next unit gets a new one */
  return 0;
}

/* Unit k's turn (w holds it, READY): the true start checked (a part read
 * again from there when the guess was wrong), rejects written, counters
 * added, a read error raised, and the next unit's turn. */
static int commit(worker *wk, result *w) {
  par *p = wk->p;
  job *j = p->j;
  const size_t k = w->unit;
  const unit *u = &p->units[k];
  w->delta = 0;
  if (u->part && u->lo > 0) {
    if (w->first_off != p->prev_end) {
      atomic_fetch_add(&p->reparsed, 1);
      if (read_unit(wk, w, k, p->prev_end, p->prev_line)) return -1;
    } else {
      w->delta = p->prev_line - w->first_line;
    }
  }
  if (write_rejects(p, w, u, w->delta)) return -1;
  j->sum->records_read += w->read;
  j->sum->null_values += w->nulls;
  j->sum->long_keys += w->long_keys;
  j->sum->blank_lines += w->blank_lines;
  p->input_bytes += w->bytes;
  if (w->fatal) return fail(j, w->fatal, "%s", w->fatal_msg);
  const hfg_build_options *o = j->o;
  if (o->progress && now_s() - p->last_progress > 1.0) {
    p->last_progress = now_s();
    hfg_build_progress pr = {"ingest", j->sum->records_read, p->input_bytes, 0,
                             j->splits.n + 1, 0};
    o->progress(o->progress_ctx, &pr);
  }
  pthread_mutex_lock(&p->mu);
  p->prev_end = w->end_off;
  p->prev_line = w->end_line + w->delta;
  p->turn = k + 1;
  w->state = u->part ? R_COMMITTED : R_FREE;
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  return 0;
}

static result *find_result(par *p, int state, size_t k) {
  for (size_t i = 0; i < p->nres; i++)
    if (p->res[i].state == state && (k == SIZE_MAX || p->res[i].unit == k))
      return &p->res[i];
  return NULL;
}

/* Where unit u's reading starts: 0, or for a later part of a file a guess. */
static uint64_t part_start(par *p, const unit *u, int *fd, size_t *fd_input, uint8_t *win) {
  if (!u->part || u->lo == 0) return 0;
  const char *name = hfg_record_reader_input_name(p->rr, u->input);
  if (*fd_input != u->input) { /* the file to guess in, kept open across its parts */
    if (*fd >= 0) close(*fd);
    *fd = open(name, O_RDONLY | O_CLOEXEC);
    *fd_input = u->input;
  }
  hfg_input_format f =
      p->io.format == HFG_INPUT_AUTO ? hfg_input_format_guess(name) : p->io.format;
  int delim = p->io.delimiter >= 0 ? p->io.delimiter : f == HFG_INPUT_TSV ? '\t' : ',';
  uint64_t start =
      *fd < 0 ? UINT64_MAX
              : hfg_part_guess_start(*fd, u->lo, f == HFG_INPUT_CSV, (unsigned char)delim, win);
  /* no line end in reach: start at hi, an empty part unless the check says otherwise */
  return start == UINT64_MAX ? u->hi : start;
}

/* A worker, in order of preference: adds a committed part to its own sorter
 * part, commits the unit whose turn it is (one committer at a time), reads
 * the next unit into a free result. It waits only when none of these can be
 * done, so a worker whose unit waits for its turn reads on. */
static void *worker_main(void *arg) {
  worker *w = arg;
  par *p = w->p;
  job *j = p->j;
  uint8_t *win = hfg_malloc(HFG_PART_GUESS_WINDOW);
  if (!win) {
    fail(j, HFG_ENOMEM, "out of memory");
    return NULL;
  }
  int fd = -1;
  size_t fd_input = SIZE_MAX;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    if (stopped(j)) break;
    result *r = find_result(p, R_COMMITTED, SIZE_MAX);
    if (r) {
      r->state = R_ADDING;
      pthread_mutex_unlock(&p->mu);
      int rc = add_keyed(w, r);
      pthread_mutex_lock(&p->mu);
      r->state = R_FREE;
      pthread_cond_broadcast(&p->cv);
      if (rc) break;
      continue;
    }
    int commit_rc;
    if (commit_turn(w, &commit_rc)) {
      if (commit_rc) break;
      continue;
    }
    if (p->next_unit < p->nunits && (r = find_result(p, R_FREE, SIZE_MAX)) != NULL) {
      size_t k = p->next_unit++;
      r->state = R_READING;
      r->unit = k;
      pthread_mutex_unlock(&p->mu);
      uint64_t start = part_start(p, &p->units[k], &fd, &fd_input, win);
      int rc = read_unit(w, r, k, start, 1);
      pthread_mutex_lock(&p->mu);
      r->state = R_READY;
      pthread_cond_broadcast(&p->cv);
      if (rc) break;
      continue;
    }
    if (p->turn == p->nunits && !find_result(p, R_ADDING, SIZE_MAX)) break; /* all done */
    wait_briefly(p);
  }
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  if (fd >= 0) close(fd);
  hfg_free(win);
  if (!stopped(j)) hfg_sorter_part_sort(j->sorter, w->id);
  return NULL;
}

/* The units of every input, in order; 0, HFG_BUILD_SEQUENTIAL or HFG_ENOMEM. */
static int plan_units(par *p, size_t chunk) {
  size_t n = hfg_record_reader_inputs(p->rr), cap = 0;
  for (size_t i = 0; i < n; i++) {
    /* stdin, pipes, devices: read once, by the reader that may have begun already */
    if (!hfg_record_reader_input_regular(p->rr, i)) return HFG_BUILD_SEQUENTIAL;
    uint64_t size = 0;
    int plain = hfg_record_reader_input_plain(p->rr, i, &size);
    uint64_t parts = plain ? (size + chunk - 1) / chunk : 1;
    if (parts == 0) parts = 1;
    for (uint64_t q = 0; q < parts; q++) {
      if (p->nunits == cap) {
        cap = cap ? 2 * cap : 64;
        unit *v = hfg_realloc(p->units, cap * sizeof *v);
        if (!v) return HFG_ENOMEM;
        p->units = v;
      }
      uint64_t lo = q * chunk, hi = q + 1 == parts ? size : lo + chunk;
      p->units[p->nunits++] = (unit){i, lo, hi, plain, q + 1 == parts};
      p->has_whole |= !plain;
    }
  }
  if (p->nunits >= ((size_t)1 << (64 - SEQ_UNIT_SHIFT))) return HFG_BUILD_SEQUENTIAL;
  return p->nunits < 2 ? HFG_BUILD_SEQUENTIAL : 0;
}

int hfg_build_ingest_par(job *j, hfg_record_reader *rr) {
  const hfg_build_options *o = j->o;
  long nt = o->threads > 0 ? o->threads : sysconf(_SC_NPROCESSORS_ONLN);
  size_t ninputs = hfg_record_reader_inputs(rr);
  if (nt < 2 || hfg_record_reader_has_db(rr) || hfg_record_reader_expected_columns(rr) == 0 ||
      ninputs > sizeof j->input_names / sizeof *j->input_names)
    return HFG_BUILD_SEQUENTIAL;
  par p;
  memset(&p, 0, sizeof p);
  p.j = j;
  p.rr = rr;
  hfg_build_input_options(o, &p.io);
  if (!p.io.buffer_size) p.io.buffer_size = PART_READ_BUFFER;
  p.nulls_possible = hfg_build_nulls_possible(j, rr);
  p.last_progress = now_s();
  /* Parts of 4 MiB, smaller when the budget is small, so that every worker's
   * buffers (a part's keyed records and rejects, its reader, or a whole input's
   * record pump) stay a small share of --memory: they are taken from it. */
  size_t chunk = o->ingest_chunk;
  if (!chunk) {
    chunk = o->memory / (16 * (size_t)nt);
    chunk = chunk > MAX_CHUNK ? MAX_CHUNK : chunk < MIN_CHUNK ? MIN_CHUNK : chunk;
  }
  int rc = plan_units(&p, chunk);
  if (rc) {
    hfg_free(p.units);
    return rc == HFG_ENOMEM ? fail(j, rc, "out of memory") : rc;
  }
  if ((size_t)nt > p.nunits) nt = (long)p.nunits;
  /* file index = input index, so emit names a duplicate's file for any thread count */
  j->ninput_names = ninputs;
  for (size_t i = 0; i < ninputs; i++) j->input_names[i] = hfg_record_reader_input_name(rr, i);
  worker *w = hfg_calloc((size_t)nt, sizeof *w);
  p.nres = 2 * (size_t)nt; /* two units in hand a worker: it reads on while one waits */
  p.res = hfg_calloc(p.nres, sizeof *p.res);
  int counts_ok = p.res != NULL;
  for (size_t i = 0; counts_ok && i < p.nres; i++) {
    p.res[i].nregions = j->splits.n + 1;
    counts_ok = (p.res[i].per_region = hfg_calloc(p.res[i].nregions, sizeof(size_t))) != NULL &&
                (p.res[i].region_bytes = hfg_calloc(p.res[i].nregions, sizeof(size_t))) != NULL;
  }
  /* two parts' buffers, a reader buffer and the guess window; a whole input's pump
   * and held rejects when there are such inputs; at most a quarter of the budget */
  size_t held = 3 * chunk + PART_READ_BUFFER + HFG_PART_GUESS_WINDOW;
  if (p.has_whole && held < ((size_t)5 << 20)) held = (size_t)5 << 20;
  size_t reserve = (size_t)nt * held;
  if (reserve > o->memory / 4) reserve = o->memory / 4;
  if (!w || !p.res || !counts_ok || hfg_sorter_set_parts(j->sorter, (size_t)nt, reserve)) {
    for (size_t i = 0; p.res && i < p.nres; i++) {
      hfg_free(p.res[i].per_region);
      hfg_free(p.res[i].region_bytes);
    }
    hfg_free(w);
    hfg_free(p.res);
    hfg_free(p.units);
    return fail(j, HFG_ENOMEM, "out of memory");
  }
  pthread_mutex_init(&p.mu, NULL);
  pthread_cond_init(&p.cv, NULL);
  long started = 0;
  for (; started < nt; started++) {
    w[started].p = &p;
    w[started].id = (size_t)started;
    if (pthread_create(&w[started].th, NULL, worker_main, &w[started])) {
      fail(j, HFG_ENOMEM, "cannot start the ingest threads");
      break;
    }
  }
  for (long i = 0; i < started; i++) pthread_join(w[i].th, NULL);
  if (!j->err.code && canceled(j))
    fail(j, HFG_ECANCELED, "canceled during ingest, after %llu record%s",
         (unsigned long long)j->sum->records_read, j->sum->records_read == 1 ? "" : "s");
  j->sum->input_bytes = p.input_bytes;
  j->sum->ingest_reparsed = atomic_load(&p.reparsed);
  j->sum->ingest_parts = p.nunits;
  j->sum->ingest_threads = (unsigned)nt;
  for (long i = 0; i < nt; i++) hfg_buf_free(&w[i].payload);
  for (size_t i = 0; p.res && i < p.nres; i++) {
    hfg_buf_free(&p.res[i].keyed);
    hfg_buf_free(&p.res[i].rej);
    hfg_free(p.res[i].per_region);
    hfg_free(p.res[i].region_bytes);
  }
  hfg_free(p.res);
  pthread_cond_destroy(&p.cv);
  pthread_mutex_destroy(&p.mu);
  hfg_free(w);
  hfg_free(p.units);
  return j->err.code;
}
