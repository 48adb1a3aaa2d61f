/*
 * The few file-system calls whose failure hfilegen must survive cleanly, in
 * one place so tests can fail the Nth one (write, fsync, rename) with a chosen
 * errno, e.g. ENOSPC, and prove nothing half-written becomes visible.
 * Each returns 0 or a negative errno.
 */
#ifndef HFG_UTIL_FSIO_H
#define HFG_UTIL_FSIO_H

#include <stddef.h>
#include <stdint.h>

int hfg_io_write_all(int fd, const void *p, size_t n);
/* Writes [p, p+n) at offset off (pwrite). When *direct is set, fd writes
 * with O_DIRECT: a write the file system refuses (EINVAL: no direct I/O for
 * this file, or an alignment it does not take) clears O_DIRECT on fd, clears
 * *direct and goes on through the page cache from the byte it reached. */
int hfg_io_pwrite_all(int fd, const void *p, size_t n, uint64_t off, int *direct);
int hfg_io_fsync(int fd);
int hfg_io_ftruncate(int fd, uint64_t len);
/* Starts writing back [off, off + len) of fd without waiting (Linux's
 * sync_file_range; nothing elsewhere), so that a later fsync waits less. */
void hfg_io_writeback(int fd, uint64_t off, uint64_t len);
int hfg_io_rename(const char *from, const char *to);
/* fsyncs a directory (after renames into it). */
int hfg_io_fsync_dir(const char *dir);

/* Fault injection (tests only): the nth I/O call from now (n >= 1) fails with
 * err_no; 0 disarms. hfg_fault_io_fired() tells whether it was delivered. */
void hfg_fault_io_arm(long n, int err_no);
int hfg_fault_io_fired(void);

#endif
