/*
 * Decoding what hbase:meta and the master say about one table, with no I/O, so
 * that tests can run it on captured answers (tests/unit/test_hbase_wire.c).
 *
 *   hb_meta_init  hb_meta_add_response*  hb_meta_finish
 */
#ifndef HFG_CLIENT_HB_TABLE_H
#define HFG_CLIENT_HB_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "hfilegen/hbase.h"
#include "util/err.h"

/* The meta row key of a table: its name without a "default:" namespace prefix
 * (TableName.getName()). Fills ns/qual for the master's TableName. */
int hb_table_name(const char *table, char *row, size_t row_cap, char *ns, size_t ns_cap,
                  char *qual, size_t qual_cap);

typedef struct hb_meta_acc {
  hfg_hbase_table *t;
  char row[512];            /* the table's meta row key */
  size_t row_len;
  int state;                /* TableState.State, -1 when no state row was seen */
  size_t cap;
  size_t rows_seen;
} hb_meta_acc;

/* Scan bounds: rows [row, row + "-") hold the state row `row` and the region rows
 * "row,...": no legal table-name byte lies between ',' and '-'. */
void hb_meta_init(hb_meta_acc *a, hfg_hbase_table *t, const char *row);

/* Adds the rows of one ScanResponse body; *more is set when the region scanner
 * has more rows, *scanner_id to the server's scanner. */
int hb_meta_add_response(hb_meta_acc *a, const uint8_t *body, size_t len, int *more,
                         uint64_t *scanner_id, int *has_scanner_id, hfg_err *err);

/* Sorts the regions and checks them: the table exists (HFG_EINVAL), is enabled
 * (HFG_ESTATE), and its regions tile the key space (HFG_EIO: retriable, a split
 * or merge is in progress). */
int hb_meta_finish(hb_meta_acc *a, hfg_err *err);

/* Fills t's schema from a GetTableDescriptorsResponse body (HFG_EINVAL when the
 * table is not in it). */
int hb_schema_decode(const uint8_t *body, size_t len, const char *table, hfg_hbase_table *t,
                     hfg_err *err);

#endif
