/*
 * Byte source of the record reader: one input file (or stdin), plain or
 * gzip-compressed, read in large chunks. Internal to src/pipeline.
 *
 * Gzip is recognised by the first two bytes (1f 8b), never by the name, and
 * decoded with zlib in gzip-only mode (windowBits 15+16). Concatenated members
 * (RFC 1952 section 2.2, what `cat a.gz b.gz` and pigz/bgzip produce) are read
 * one after the other; bytes after a member that do not start another valid
 * member are an error, as is a stream cut short.
 *
 * Calls: open read* close. The struct is caller-owned (embedded); close is
 * safe on a zeroed or already closed source.
 */
#ifndef HFG_PIPELINE_RECORD_INPUT_H
#define HFG_PIPELINE_RECORD_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "util/err.h"

typedef struct hfg_rin {
  const char *name;  /* for messages; borrowed */
  int fd;
  int owns_fd;       /* 0 for stdin */
  int is_gz;
  uint8_t peek[2];   /* first bytes, read to sniff the format */
  size_t npeek, peek_off;
  /* gzip state, valid when is_gz */
  z_stream zs;
  int zs_ready;
  int member_end;    /* inflate reported the end of a member */
  int raw_eof;       /* the compressed file is exhausted */
  uint8_t *zbuf;
  size_t zcap;
  uint64_t bytes_in; /* bytes read from the file as stored */
} hfg_rin;

/* Opens path ("-" = stdin, shown in messages as display_name) and sniffs the
 * format. Returns 0, HFG_EIO (message names the file), HFG_ENOMEM or
 * HFG_ECORRUPT (zlib refused the gzip header). On error the source is closed. */
int hfg_rin_open(hfg_rin *in, const char *path, const char *display_name, hfg_err *err);

/* Reads up to n > 0 bytes of (decompressed) data into dst. Sets *got; *got ==
 * 0 only at end of input. Returns 0, HFG_EIO or HFG_ECORRUPT (bad or
 * truncated gzip data). */
int hfg_rin_read(hfg_rin *in, char *dst, size_t n, size_t *got, hfg_err *err);

void hfg_rin_close(hfg_rin *in);

#endif
