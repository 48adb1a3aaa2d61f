/*
 * External merge sort of rows, partitioned by region, within a memory budget.
 *
 * A row record is opaque to the sorter except for its sort key (rowkey, then
 * input sequence number, so equal rowkeys keep input order). Records are kept
 * in slabs with a per-region index of {8-byte key prefix, pointer}; when slabs
 * and index exceed the budget, every region's index is sorted and written as
 * one run file (regions one after another), and memory is reused. Seven
 * eighths of the budget hold records and index; one eighth is for the read
 * buffers that merge the runs back (each between 16 and 256 KiB; 64 KiB LZ4
 * frames), so records, index and merging stay within the budget together. Emitting a
 * region merges its segment of every run with its sorted in-memory tail.
 * When runs exceed the merge fan-in they are first merged into one run.
 *
 * Lifecycle: new → add* → (iter_open → iter_next* → iter_close per region,
 * regions may be iterated concurrently from different threads) → free.
 * Run files live in tmp_dir and are removed by free, also after failures.
 *
 * Record layout (in memory and in runs):
 *   len:u32 (bytes after it) keylen:u16 key seq:u64 payload
 */
#ifndef HFG_PIPELINE_SORTER_H
#define HFG_PIPELINE_SORTER_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "util/coding.h"
#include "util/err.h"

#define HFG_SORT_REC_HEADER(klen) (4 + 2 + (klen) + 8)

typedef struct hfg_sorter hfg_sorter;
typedef struct hfg_sort_iter hfg_sort_iter;

hfg_sorter *hfg_sorter_new(size_t nregions, size_t mem_budget, const char *tmp_dir);

/* Compress spill runs with LZ4 (frames of 64 KiB). Off by default: on
 * the measured machine plain writes beat compressed ones (research/limits.md:
 * lz4 costs ~24 core-s per 10 GB of CSV to save ~3 s of disk); worth it on
 * slow or small scratch disks. Call before the first add. */
void hfg_sorter_set_lz4(hfg_sorter *s, int on);

/* How many iterators will be open at once (the emit threads; default 1):
 * their run read buffers share the budget's merge part. Call before the
 * iterators. */
void hfg_sorter_set_readers(hfg_sorter *s, unsigned n);

/* Adds one record to a region; payload is copied. May spill (I/O errors are
 * reported with the run file named). */
int hfg_sorter_add(hfg_sorter *s, size_t region, const uint8_t *key, size_t klen, uint64_t seq,
                   const uint8_t *payload, size_t plen, hfg_err *err);

/* Parallel adders (parallel ingest, build_ingest_par.c): n parts, each with
 * its own slabs, per-region index and 1/n of the records budget, so that n
 * threads add at once without a lock, each to its own part (part 0..n-1).
 * A part that outgrows its share spills its records as a run of its own
 * (runs are shared; spilling takes a mutex only to merge and list runs). A
 * region's iterator merges every run and every part's sorted records by
 * (key, seq), so the order, and all that is written, does not depend on how
 * records were spread over the parts when seq is the input order. Call
 * before the first add; default 1 part. reserve: bytes the adders hold
 * outside the sorter (their buffers), taken from the records budget so that
 * all of it stays within mem_budget. 0 or HFG_ENOMEM. */
int hfg_sorter_set_parts(hfg_sorter *s, size_t n, size_t reserve);
int hfg_sorter_add_part(hfg_sorter *s, size_t part, size_t region, const uint8_t *key,
                        size_t klen, uint64_t seq, const uint8_t *payload, size_t plen,
                        hfg_err *err);
/* Records handed over whole instead of copied: buf (len bytes from
 * hfg_malloc/hfg_realloc) holds records in the sort record form (the caller
 * finds them; what lies between them is never read) of which per_region[g]
 * go to region g. hfg_sorter_adopt takes buf as one of the part's slabs when
 * its budget has room for it and for the index entries of all those records:
 * 1, and the sorter frees buf, whose records the caller must then give to
 * hfg_sorter_add_adopted, every one, before any other add to the part; 0, and
 * nothing changed (the caller keeps buf and copies its records with
 * hfg_sorter_add_part, which spills as needed); HFG_ENOMEM. */
int hfg_sorter_adopt(hfg_sorter *s, size_t part, uint8_t *buf, size_t len,
                     const size_t *per_region);
void hfg_sorter_add_adopted(hfg_sorter *s, size_t part, size_t region, uint8_t *rec);
/* Sorts a part's in-memory records (by the thread that filled it, after its
 * last add), so that the sort runs in parallel rather than when emit opens
 * each region. Optional. */
void hfg_sorter_part_sort(hfg_sorter *s, size_t part);

/* Ends input. Must precede the iterators. */
int hfg_sorter_finish(hfg_sorter *s, hfg_err *err);

int hfg_sort_iter_open(hfg_sorter *s, size_t region, hfg_sort_iter **out, hfg_err *err);
/* 1 and the record (borrowed until the next call), 0 at the end, < 0 error. */
int hfg_sort_iter_next(hfg_sort_iter *it, const uint8_t **rec, size_t *len, hfg_err *err);
void hfg_sort_iter_close(hfg_sort_iter *it);

/* Statistics. */
size_t hfg_sorter_runs(const hfg_sorter *s);
uint64_t hfg_sorter_spilled_bytes(const hfg_sorter *s);
uint64_t hfg_sorter_region_rows(const hfg_sorter *s, size_t region);
uint64_t hfg_sorter_region_bytes(const hfg_sorter *s, size_t region);

void hfg_sorter_free(hfg_sorter *s);

/* A cancel flag (borrowed, NULL: none): once *flag is nonzero, a spill or a
 * merge of runs stops at the next region or 4096 records and fails with
 * HFG_ECANCELED (the partial run removed). */
void hfg_sorter_set_cancel(hfg_sorter *s, volatile sig_atomic_t *flag);

/* Bytes of the run files on disk now (what free would remove), plus those of
 * partial runs a failure already removed. */
uint64_t hfg_sorter_disk_bytes(const hfg_sorter *s);

/* Accessors for a record's fields. */
static inline size_t hfg_rec_klen(const uint8_t *r) { return (size_t)r[4] << 8 | r[5]; }
static inline const uint8_t *hfg_rec_key(const uint8_t *r) { return r + 6; }
uint64_t hfg_rec_seq(const uint8_t *r);
static inline const uint8_t *hfg_rec_payload(const uint8_t *r, size_t len, size_t *plen) {
  size_t off = HFG_SORT_REC_HEADER(hfg_rec_klen(r));
  *plen = len - off;
  return r + off;
}
/* Writes a record's header at r: its length n (header and payload), the key
 * length, the key and seq; the payload goes at r + HFG_SORT_REC_HEADER(klen). */
static inline void hfg_rec_put_header(uint8_t *r, size_t n, const uint8_t *key, size_t klen,
                                      uint64_t seq) {
  hfg_put_be32(r, (uint32_t)(n - 4));
  hfg_put_be16(r + 4, (uint16_t)klen);
  hfg_copy(r + 6, key, klen); /* per record: no call for a short key */
  hfg_put_be64(r + 6 + klen, seq);
}

#endif
