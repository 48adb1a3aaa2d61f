/*
 * The build job cut into the pieces a distributed runner needs (the Python
 * bindings and the Spark job in python/): the same code as hfg_build_run, so
 * the same options give the same bytes.
 *
 *   driver:  open → begin (output dir staged, locked) → tasks → add_file* →
 *            set_counts → publish | abort → free
 *   tasks:   open → read_file or key (records → keys, regions, payloads)
 *            open → emit (one region's keyed records → its HFiles in a dir)
 *
 * A keyed record is (region, rowkey, order, payload): order is the input
 * order (file index << 40 | record number) that breaks ties between equal
 * rowkeys for --on-duplicate; the payload is the build's sort payload. Rejects
 * come back as lines of the rejects file (file, line, reason, raw bytes).
 * Nothing here prints or reads the environment.
 */
#ifndef HFILEGEN_BATCH_H
#define HFILEGEN_BATCH_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/build.h"

#ifdef __cplusplus
extern "C" {
#endif
#pragma GCC visibility push(default) /* the public API: exported from libhfilegen */

typedef struct hfg_batch hfg_batch;

/* Keyed records and rejects of one read or key call (owned by the batch,
 * valid until the next call on it). Offsets are int64 (Arrow large_binary). */
typedef struct hfg_batch_out {
  size_t n;
  uint32_t *region;
  int64_t *key_off;  /* n + 1 */
  uint8_t *key_data;
  uint64_t *order;
  int64_t *pl_off;   /* n + 1 */
  uint8_t *pl_data;
  uint8_t *rejects;  /* rejects-file lines, input order */
  size_t rejects_len;
  uint64_t records_read, records_rejected, long_keys, input_bytes;
  uint64_t null_values; /* NULL fields of written records' cell columns (no cell) */
  uint64_t blank_lines; /* CSV/TSV blank lines skipped (read_file, read_range: a range's
                           add up to the file's; 0 for key) */
} hfg_batch_out;

/* Sets up the job as hfg_build_run does (column names from the first input's
 * header or o->columns, scheme, cell columns, family options, splits). ts:
 * the job timestamp; < 0: as hfg_build_run picks it (o->job_timestamp, then
 * o->timestamp, then now). Copies nothing of o: it must outlive the batch. */
int hfg_batch_open(const hfg_build_options *o, int64_t ts, hfg_batch **out, char *err,
                   size_t errcap);
void hfg_batch_free(hfg_batch *b);
const char *hfg_batch_errmsg(const hfg_batch *b);
int64_t hfg_batch_timestamp(const hfg_batch *b);
size_t hfg_batch_regions(const hfg_batch *b);
size_t hfg_batch_columns(const hfg_batch *b, const char *const **names);

/* Reads input o->inputs[file] with the record reader and keys every record. */
int hfg_batch_read_file(hfg_batch *b, size_t file, hfg_batch_out **out);

/* Keys n records given as columns (ncols = hfg_batch_columns): column c's
 * record i is data[c][off[c][i] .. off[c][i+1]) (Arrow string layout, int32
 * offsets); lines[i] and file name the record in rejects and duplicate
 * errors; order = file << 40 | first_seq + i. */
int hfg_batch_key(hfg_batch *b, size_t n, size_t ncols, const int32_t *const *off,
                  const uint8_t *const *data, const uint64_t *lines, size_t file,
                  uint64_t first_seq, hfg_batch_out **out);

/* Task side: writes region's HFiles (per family, rolled at max_file_size,
 * duplicates by on_duplicate) from its n keyed records (any order) into
 * dir/<family>/_<name>; hfg_batch_nfiles / hfg_batch_file then describe them. */
int hfg_batch_emit(hfg_batch *b, size_t region, const char *dir, size_t n,
                   const int64_t *key_off, const uint8_t *key_data, const uint64_t *order,
                   const int64_t *pl_off, const uint8_t *pl_data);

typedef struct hfg_batch_file {
  size_t region, family;
  unsigned seq;
  const char *name, *path;       /* file name; where it is (a '_' temporary) */
  const uint8_t *first_row, *last_row;
  size_t first_len, last_len;
  uint64_t cells, bytes;
} hfg_batch_file;

size_t hfg_batch_nfiles(const hfg_batch *b);
int hfg_batch_get_file(const hfg_batch *b, size_t i, hfg_batch_file *f);
const char *hfg_batch_family(const hfg_batch *b, size_t f);
/* counts[0..5): rows, cells, files of region; duplicates dropped,
 * records without cells, marker rows (of the batch's emits so far). */
void hfg_batch_region_counts(const hfg_batch *b, size_t region, uint64_t counts[6]);

/* Driver side. begin: the output directory checked, locked and staged as
 * hfg_build_run does; *dir is where the job writes until publish. */
int hfg_batch_begin(hfg_batch *b, const char **dir);
/* A path the user gave inside the output directory, as the job sees it. */
void hfg_batch_work_path(const hfg_batch *b, const char *path, char *buf, size_t cap);
int hfg_batch_add_file(hfg_batch *b, const hfg_batch_file *f);
/* The job's totals: records read / rejected; per region rows, cells, files
 * (arrays of hfg_batch_regions); duplicates, without cells, marker rows. */
void hfg_batch_set_counts(hfg_batch *b, uint64_t read, uint64_t rejected, const uint64_t *rows,
                          const uint64_t *cells, const uint64_t *files, uint64_t dups,
                          uint64_t without_cells, uint64_t marker_rows);
/* Renames every added file to its final name, writes manifest.json and
 * _SUCCESS last, unstages: as hfg_build_run publishes. */
int hfg_batch_publish(hfg_batch *b);
/* A failed job: added files removed, the output directory back, unlocked. */
void hfg_batch_abort(hfg_batch *b);

/* hfg_batch_key with NULLs (typed inputs: Parquet, ORC): valid[c] is column
 * c's Arrow validity bitmap (bit i, LSB first, 0 = NULL; valid[c] NULL: no
 * NULLs in c; valid NULL: none at all). A NULL field makes no cell and is
 * counted in null_values; a NULL in a rowkey column rejects the record ("key
 * column 'id' is NULL"), as for the dump formats. */
int hfg_batch_key_nulls(hfg_batch *b, size_t n, size_t ncols, const int32_t *const *off,
                        const uint8_t *const *data, const uint8_t *const *valid,
                        const uint64_t *lines, size_t file, uint64_t first_seq,
                        hfg_batch_out **out);
/* The job's NULL count (the sum of the tasks' null_values), for the manifest;
 * call before publish. */
void hfg_batch_set_nulls(hfg_batch *b, uint64_t null_values);
/* The job's blank lines (the sum of the read calls' blank_lines), for the
 * manifest; call before publish. */
void hfg_batch_set_blank_lines(hfg_batch *b, uint64_t blank_lines);

/* Big uncompressed CSV/TSV inputs in several tasks. scan_file reads input
 * `file` once with the record reader and cuts it into byte ranges of about
 * `split` bytes at record starts: *n ranges, range i at (*starts)[3i ..
 * 3i+2] = its start offset, its first record's line and record number (0-
 * based, every record counted); range 0 is (0, 1, 0) and holds the header;
 * range i ends where i+1 starts (the last at the file's end). Valid until
 * the next scan_file. read_range keys the records of one range as read_file
 * keys the file's (end 0: to the end), with the lines, record numbers,
 * rejects and order the whole file's read gives them. The file must not
 * change between the two (a changed file gives wrong ranges, unnoticed). */
int hfg_batch_scan_file(hfg_batch *b, size_t file, uint64_t split, size_t *n,
                        const uint64_t **starts);
int hfg_batch_read_range(hfg_batch *b, size_t file, uint64_t start, uint64_t end,
                         uint64_t first_line, uint64_t first_seq, hfg_batch_out **out);

/* HBase's cell order on rows (unsigned bytes, shorter first on a tie). */
int hfg_batch_compare_rows(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

#pragma GCC visibility pop
#ifdef __cplusplus
}
#endif
#endif
