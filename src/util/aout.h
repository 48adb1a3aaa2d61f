/*
 * Sequential output of one file through a thread of its own. The caller
 * fills chunk buffers (aligned to `align`, as O_DIRECT needs) one at a time
 * and hands each over with its offset; the thread writes them in that order
 * (hfg_io_pwrite_all) while the caller goes on filling the next. An O_DIRECT
 * write returns only when the device has the bytes, so without the thread
 * the caller (a writer's layout thread) would stand still for every chunk.
 *
 * Lifecycle: hfg_aout_new → (hfg_aout_buf, fill, hfg_aout_submit)* →
 * hfg_aout_drain → hfg_aout_free. The first failed write stops the output:
 * later calls return its error (a negative errno) and hfg_aout_failed_at
 * names its offset. When no thread can be started, submit writes in place.
 */
#ifndef HFG_UTIL_AOUT_H
#define HFG_UTIL_AOUT_H

#include <stddef.h>
#include <stdint.h>

typedef struct hfg_aout hfg_aout;

/* depth buffers of chunk bytes at multiples of align; *direct as for
 * hfg_io_pwrite_all (the thread's from now on). NULL when out of memory. */
hfg_aout *hfg_aout_new(int fd, int direct, size_t chunk, size_t align, unsigned depth);
/* The buffer to fill next (chunk bytes), once a write has freed it; NULL
 * after a failed write (hfg_aout_drain tells which). */
uint8_t *hfg_aout_buf(hfg_aout *a);
/* Hands the buffer of the last hfg_aout_buf over: len bytes at offset off.
 * 0, or an earlier write's error. */
int hfg_aout_submit(hfg_aout *a, size_t len, uint64_t off);
/* Waits until every submitted write is done: 0 or the first error. */
int hfg_aout_drain(hfg_aout *a);
/* The offset of the failed write's first byte. */
uint64_t hfg_aout_failed_at(const hfg_aout *a);
/* Whether the file is still written with O_DIRECT (after drain). */
int hfg_aout_direct(const hfg_aout *a);
/* Drains, stops the thread, frees the buffers. NULL is a no-op. */
void hfg_aout_free(hfg_aout *a);

#endif
