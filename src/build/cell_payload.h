/*
 * Sort payload of typed cells: a row whose cells carry their own type,
 * timestamp and tags (Put, Delete, DeleteColumn, DeleteFamily,
 * DeleteFamilyVersion), for inputs that are cells rather than records of
 * columns (a re-keyed table's store files). Record inputs keep the column
 * payload (build_internal.h); a job uses one kind for every record
 * (job.payload).
 *
 * After the common 18-byte header (ts:be64 line:be64 file:be16; ts is unused
 * here, line and file name the record in errors) come the row's cells, in
 * the order emit writes them (grouped by family index, within a family in
 * HBase's cell order):
 *
 *   family:be16 qualifier_len:be32 timestamp:be64 type:u8 tags_len:be16
 *   value_len:be32, then qualifier, tags, value bytes
 *
 * The encoder appends to an hfg_buf; the decoder walks a payload and checks
 * every length against the bytes there (a spilled run read back is trusted
 * no further than that).
 */
#ifndef HFG_BUILD_CELL_PAYLOAD_H
#define HFG_BUILD_CELL_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/types.h"
#include "util/buf.h"

#define HFG_CELL_PAYLOAD_HEADER 18 /* ts line file, as the column payload */
#define HFG_CELL_FIXED 21          /* family qlen ts type tlen vlen */

/* Appends the header (ts, line, file) of a cell payload to pl. */
int hfg_cell_payload_begin(hfg_buf *pl, int64_t ts, uint64_t line, uint16_t file);
/* Appends one cell of family index fam (its row is the record's key; the
 * cell's row and family fields are not read). HFG_ENOMEM, or HFG_ETOOBIG
 * for a qualifier, tags or value HBase cannot hold. */
int hfg_cell_payload_add(hfg_buf *pl, uint16_t fam, const hfg_cell *c);

typedef struct hfg_cell_cursor {
  const uint8_t *p, *end;
} hfg_cell_cursor;

/* A cursor over the cells of payload (plen bytes, header included). */
void hfg_cell_cursor_init(hfg_cell_cursor *cc, const uint8_t *payload, size_t plen);
/* The next cell: 1 with *fam and c's qualifier, timestamp, type, tags and
 * value set (borrowed from the payload; row and family left as they were),
 * 0 at the end, HFG_ECORRUPT when a length runs past the payload. */
int hfg_cell_cursor_next(hfg_cell_cursor *cc, uint16_t *fam, hfg_cell *c);

#endif
