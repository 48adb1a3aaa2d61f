/*
 * Decoders of encoded data blocks (DATABLKE; format-specs/encodings.md), written
 * for the reader independently of the encoders in src/format: each turns the
 * payload of one block back into plain KeyValues (keyLength:be32 valueLength:be32
 * key value [tagsLength:be16 tags] [mvcc vlong]), the layout of a DATA block, as
 * HBase's internalDecodeKeyValues does, checking every length against the bytes
 * that hold it.
 */
#ifndef HFG_READ_RD_ENC_H
#define HFG_READ_RD_ENC_H

#include <stddef.h>
#include <stdint.h>

#include "read/rd.h"

typedef struct rd_dec {
  const uint8_t *p;     /* the encoded cells */
  size_t n, at;
  hfg_buf *out;
  const rd_cell_flags *f;
  hfg_err *err;
  uint64_t offset;      /* the block's file offset, for messages */
  const char *name;     /* the encoding's name */
  uint64_t cell;        /* index of the cell being decoded */
  int has_prev;
  size_t pk_off, pk_len; /* the previous key and value, inside out */
  size_t pv_off, pv_len;
  const uint8_t *fam;   /* DIFF: the family stored before the first cell */
  size_t fam_len;
  struct rd_tagdict *td; /* compressed tags: the block's dictionary (rd_enc.c) */
} rd_dec;

/* Decodes the whole payload (after the 2-byte id) of an encoded block with
 * the given id into out. 0, HFG_ECORRUPT or HFG_EUNSUPPORTED / HFG_ENOMEM
 * with a message in err. */
int rd_enc_decode(int id, const uint8_t *p, size_t n, const rd_cell_flags *f, uint64_t offset,
                  hfg_buf *out, hfg_err *err);

/* ---- shared by rd_enc_*.c ---- */
int rd_dec_fail(rd_dec *d, const char *what);
int rd_dec_cint(rd_dec *d, uint32_t *v, const char *what);
int rd_dec_take(rd_dec *d, size_t n, const uint8_t **p, const char *what);
/* Appends n bytes of the previous key (from its start). */
int rd_dec_copy_prev_key(rd_dec *d, size_t n);
/* Tags (compressed-int length) and mvcc of an encoded cell, written as a DATA
 * block has them; then records the cell at [cell_off..) as the previous one. */
int rd_dec_tail(rd_dec *d, size_t cell_off, uint32_t klen, uint32_t vlen);

int rd_dec_prefix(rd_dec *d);
int rd_dec_diff(rd_dec *d);
int rd_dec_fast_diff(rd_dec *d);

#endif
