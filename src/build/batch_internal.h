/*
 * Private to src/build: the batch API's pieces (batch.c) for jobs other than
 * build's that run in pieces on the same emit and publish (rekey_batch.c:
 * a snapshot's cells re-keyed in tasks, include/hfilegen/rekey.h).
 */
#ifndef HFG_BUILD_BATCH_INTERNAL_H
#define HFG_BUILD_BATCH_INTERNAL_H

#include "build/build_internal.h"
#include "hfilegen/batch.h"

/* A batch whose job has the options (copied: the strings are borrowed until
 * free), the timestamp (ts < 0: as hfg_build_run picks it), the splits and the
 * summary's regions, nothing else: the caller sets up its families, payload
 * kind and manifest member on hfg_batch_job. 0, or < 0 with err. */
int hfg_batch_new_job(const hfg_build_options *o, int64_t ts, hfg_batch **out, char *err,
                      size_t errcap);
job *hfg_batch_job(hfg_batch *b);

/* Keyed records built by the caller: begin empties the batch's output (0 or
 * HFG_ENOMEM), add appends one record, rejects is the buffer of rejects-file
 * lines, end completes the output (its counters are the caller's to set) and
 * returns it, valid until the next call on the batch. */
int hfg_batch_out_begin(hfg_batch *b);
int hfg_batch_out_add(hfg_batch *b, uint32_t region, const uint8_t *key, size_t klen,
                      uint64_t order, const uint8_t *payload, size_t plen);
hfg_buf *hfg_batch_out_rejects(hfg_batch *b);
hfg_batch_out *hfg_batch_out_end(hfg_batch *b);

#endif
