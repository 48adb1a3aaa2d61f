/*
 * Byte source of the record reader: one input file (or stdin), plain or
 * compressed, read in large chunks. Internal to src/input.
 *
 * The format is recognised by the first bytes, never by the name:
 *   1f 8b              gzip  (zlib, windowBits 15+16)
 *   28 b5 2f fd        zstd  (libzstd; also after a skippable frame 5X 2a 4d 18)
 *   "BZh" '1'..'9'     bzip2 (libbz2)
 *   fd "7zXZ" 00       xz    (liblzma)
 * and decoded on the fly (record_input_codecs.c). Concatenated streams (what
 * `cat a.gz b.gz`, pigz, pbzip2, `zstd -T` or `xz -T` produce) are read one
 * after the other; bytes after a stream that do not start another valid one
 * are an error (HFG_ECORRUPT), as is a stream cut short.
 * Other compressed or archive formats are refused by their magic with
 * HFG_EUNSUPPORTED and a message naming the file and the format: lz4 frame
 * and legacy, snappy framed, zip, 7z, rar, lzip, Unix compress (.Z).
 *
 * Calls: open read* close. The struct is caller-owned (embedded); close is
 * safe on a zeroed or already closed source.
 */
#ifndef HFG_PIPELINE_RECORD_INPUT_H
#define HFG_PIPELINE_RECORD_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

typedef enum hfg_rin_kind {
  HFG_RIN_PLAIN = 0,
  HFG_RIN_GZIP,
  HFG_RIN_ZSTD,
  HFG_RIN_BZIP2,
  HFG_RIN_XZ
} hfg_rin_kind;

#define HFG_RIN_SNIFF 10 /* bytes read to recognise the format */

typedef struct hfg_rin {
  const char *name;  /* for messages; borrowed */
  int fd;
  int owns_fd;       /* 0 for stdin */
  hfg_rin_kind kind;
  uint8_t peek[HFG_RIN_SNIFF]; /* first bytes, read to sniff the format */
  size_t npeek, peek_off;
  /* compressed input, valid when kind != PLAIN: zbuf[zpos, zlen) is unread */
  uint8_t *zbuf;
  size_t zcap, zpos, zlen;
  int raw_eof;       /* the compressed file is exhausted */
  void *dec;         /* the decoder's state (record_input_codecs.c) */
  uint64_t bytes_in; /* bytes read from the file as stored */
} hfg_rin;

/* Opens path ("-" = stdin, shown in messages as display_name) and sniffs the
 * format. Returns 0, HFG_EIO (message names the file), HFG_ENOMEM,
 * HFG_ECORRUPT (the decoder refused the stream header) or HFG_EUNSUPPORTED
 * (a compression format hfilegen does not read). On error the source is
 * closed. */
int hfg_rin_open(hfg_rin *in, const char *path, const char *display_name, hfg_err *err);

/* Opens a plain (uncompressed) regular file positioned at byte offset, with
 * no sniffing: a part of a file that hfg_rin_open found PLAIN (parallel
 * ingest, record_part.c). 0 or HFG_EIO. */
int hfg_rin_open_at(hfg_rin *in, const char *path, const char *display_name, uint64_t offset,
                    hfg_err *err);

/* Reads up to n > 0 bytes of (decompressed) data into dst. Sets *got; *got ==
 * 0 only at end of input. Returns 0, HFG_EIO, HFG_ENOMEM or HFG_ECORRUPT (bad
 * or truncated compressed data). */
int hfg_rin_read(hfg_rin *in, char *dst, size_t n, size_t *got, hfg_err *err);

void hfg_rin_close(hfg_rin *in);

/* ---- for the decoders (record_input_codecs.c) ---- */

/* Refills zbuf when it is empty: zpos = 0, zlen = bytes read, raw_eof at the
 * end of the file. 0 or HFG_EIO. */
int hfg_rin_fill(hfg_rin *in, hfg_err *err);

/* Each sets up in->dec for in->kind (zbuf already holds the sniffed bytes),
 * reads, or frees it (NULL-safe). */
int hfg_rin_dec_open(hfg_rin *in, hfg_err *err);
int hfg_rin_dec_read(hfg_rin *in, char *dst, size_t n, size_t *got, hfg_err *err);
void hfg_rin_dec_close(hfg_rin *in);

#endif
