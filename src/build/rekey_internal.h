/*
 * Private to the rekey job (rekey.c: hfg_rekey_run; rekey_batch.c: the same in
 * pieces for distributed runners): the job's setup, its manifest member and
 * the per-row pieces both ingest paths share, so that both write the same bytes.
 */
#ifndef HFG_BUILD_REKEY_INTERNAL_H
#define HFG_BUILD_REKEY_INTERNAL_H

#include "build/build_internal.h"
#include "build/rekey_rows.h"
#include "hfilegen/rekey.h"
#include "util/buf.h"

typedef struct rekey {
  job *j;
  const hfg_rekey_options *ro;
  hfg_rekey_summary *rs;    /* rs->as_of set before setup; the manifest reads its counts */
  hfg_rekey_rows *rows;
  const hfg_snapshot *snap; /* the rows' */
  hfg_buf payload;
} rekey;

/* Opens the old table's rows (k->rows, k->snap), notes the snapshot's table and
 * the re-keying's warning in k->rs, sets up the job's families and their HFile
 * options (schema, --table, flags, --family-option), the typed-cell payload and
 * the manifest's "rekey" member (reading k->ro and k->rs at publish). Borrows
 * the rows' scheme into j->scheme: the caller takes it back (NULL) before the
 * job is freed. 0, or the job's failure code. */
int hfg_rekey_setup(rekey *k);

/* The payload (cell_payload.h) of a re-keyed row into pl (reset first): the
 * header naming the row (ordinal, region), then every family's cells. 0,
 * HFG_ENOMEM, or HFG_ETOOBIG for a cell HBase cannot hold. */
int hfg_rekey_row_payload(hfg_buf *pl, const hfg_rekey_row *row, size_t nfamilies);

/* One line of the rejects file for a rejected old row of region `encoded`
 * ("" for family folders), appended to out: region, ordinal, reason, the row's
 * escaped bytes. 0 or HFG_ENOMEM. */
int hfg_rekey_reject_line(hfg_buf *out, const char *encoded, uint64_t ordinal,
                          const char *reason, const uint8_t *row, size_t len);

/* The store scans' counts and store files into the summary's fields. */
void hfg_rekey_take_counts(hfg_rekey_summary *rs, const hfg_store_scan_counts *c,
                           uint64_t store_files);

#endif
