/*
 * Column mapping: which input columns become which cells. Shared by `build`
 * (which writes the cells) and `plan` (which estimates them), so both follow
 * one set of rules:
 *
 *   - every column becomes a cell <default family>:<column name>, as text;
 *   - "COL=FAMILY:QUALIFIER[:ENCODING]" overrides the family, qualifier or value
 *     encoding (an empty part keeps its default; the last mapping of a column
 *     wins); "COL=-" excludes the column;
 *   - columns the rowkey template reads are not stored unless mapped
 *     explicitly or keep_key_columns is set;
 *   - a NULL field makes no cell, nor does an empty one with empty = SKIP
 *     (hfg_colmap_field_is_cell); a record none of whose fields makes a cell
 *     makes no row, or a row of one marker cell (hfg_colmap_empty_row);
 *   - two columns never become the same family:qualifier (each row would get
 *     two cells with one key, and HBase keeps only one), and a name the header
 *     repeats may not be referred to by the template, a mapping or the
 *     timestamp column (it would be ambiguous).
 *
 * Cells are listed in the order HBase sorts them within a row: family, then
 * qualifier, as unsigned bytes.
 */
#ifndef HFG_PIPELINE_COLUMNS_H
#define HFG_PIPELINE_COLUMNS_H

#include <stddef.h>

#include "hfilegen/build.h"
#include "hfilegen/scheme.h"
#include "input/record_reader.h"
#include "build/values.h"
#include "util/err.h"

typedef struct hfg_cellcol {
  size_t column;          /* input column index */
  size_t family;          /* index into hfg_colmap.families */
  char *qualifier;
  size_t qualifier_len;
  hfg_value_encoding enc;
  const char *name;       /* the input column's name (in qualifier's allocation) */
} hfg_cellcol;

typedef struct hfg_colmap {
  hfg_cellcol *cols;      /* sorted by (family name, qualifier) */
  size_t ncols;
  char **families;        /* the default family first, then in order of first use */
  size_t *family_len;
  size_t nfamilies;
} hfg_colmap;

/* Builds the map for the input's column names. On error returns < 0 with a
 * message in err (a mapping naming no column, an unknown encoding, no cell at
 * all, a family name over HBase's 127 bytes, two columns onto one cell, an
 * ambiguous name); free the map in every case. */
int hfg_colmap_init(hfg_colmap *m, const char *const *names, size_t n,
                    const hfg_build_options *o, const hfg_scheme *scheme, hfg_err *err);

/* The record reader's options for a job's inputs (format, delimiter, header,
 * column names), one rule for build, plan and sample splits. */
void hfg_build_input_options(const hfg_build_options *o, hfg_input_options *io);

/* "column 2 (name)", or "column 2 (name, as cf:amount)" when --map gives it
 * another family or qualifier than its name and the default family: the
 * column a rejected value came from, in why. */
void hfg_colmap_column_text(const hfg_colmap *m, const hfg_cellcol *cc, char *why, size_t len);

/* 1 when the field of a cell column makes a cell: a value that is not empty,
 * or an empty one (not NULL) with empty = HFG_EMPTY_STORE. */
static inline int hfg_colmap_field_is_cell(const hfg_field *f, int empty) {
  return f->len != 0 || (!f->is_null && empty != HFG_EMPTY_SKIP);
}

/* What a record whose fields make no cell becomes (o->empty_row): 0, no row
 * (HFG_EMPTY_ROW_SKIP: build writes nothing and counts it in
 * records_without_cells); 1, a row of one empty-valued cell whose family and
 * qualifier are set (HFG_EMPTY_ROW_MARKER). family/qualifier may be NULL. */
int hfg_colmap_empty_row(const hfg_build_options *o, const char **family, const char **qualifier);

/* Index of a family name in the map, or -1. */
long hfg_colmap_family(const hfg_colmap *m, const char *name, size_t len);

void hfg_colmap_free(hfg_colmap *m);

/* Index of a family name in the map, added at the end when it is not there
 * yet (a family that holds no column, such as build's marker cell's); < 0 on
 * error with a message in err (a name over HBase's 127 bytes, no memory). */
long hfg_colmap_add_family(hfg_colmap *m, const char *name, size_t len, hfg_err *err);

#endif
