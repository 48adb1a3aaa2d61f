/*
 * Record pump: runs a record reader on its own thread so that parsing the
 * input overlaps with the work done on each record (rowkey, values, sort).
 * hfg_record_pump_next has exactly the contract of hfg_record_reader_next
 * (1 record, 0 end, HFG_EPARSE malformed record, other < 0 fatal); the
 * record's pointers stay valid until the next call.
 *
 * Lifecycle: start (next)* stop. stop may come early (the consumer gave up):
 * it tells the reading thread to stop and joins it. The reader must not be
 * used by anyone else between start and stop.
 */
#ifndef HFG_PIPELINE_RECORD_PUMP_H
#define HFG_PIPELINE_RECORD_PUMP_H

#include <stdint.h>

#include "input/record_reader.h"

typedef struct hfg_record_pump hfg_record_pump;

/* NULL when memory or a thread cannot be had (then read directly instead). */
hfg_record_pump *hfg_record_pump_start(hfg_record_reader *r);
int hfg_record_pump_next(hfg_record_pump *p, hfg_record *rec);
/* Input bytes the reading thread has consumed so far (for progress). */
uint64_t hfg_record_pump_bytes_read(const hfg_record_pump *p);
void hfg_record_pump_stop(hfg_record_pump *p);

#endif
