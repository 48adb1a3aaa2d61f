#define _GNU_SOURCE /* sync_file_range, O_DIRECT */
#include "util/fsio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static _Atomic long io_countdown = 0;
static _Atomic int io_errno = 0;
static _Atomic int io_fired = 0;

void hfg_fault_io_arm(long n, int err_no) {
  atomic_store(&io_fired, 0);
  atomic_store(&io_errno, err_no);
  atomic_store(&io_countdown, n);
}

int hfg_fault_io_fired(void) { return atomic_load(&io_fired); }

static int injected(void) {
  long c = atomic_load(&io_countdown);
  while (c > 0) {
    if (atomic_compare_exchange_weak(&io_countdown, &c, c - 1)) {
      if (c == 1) {
        atomic_store(&io_fired, 1);
        return atomic_load(&io_errno);
      }
      return 0;
    }
  }
  return 0;
}

int hfg_io_write_all(int fd, const void *p, size_t n) {
  int e = injected();
  if (e) return -e;
  const char *b = p;
  while (n) {
    ssize_t w = write(fd, b, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -errno;
    }
    b += w;
    n -= (size_t)w;
  }
  return 0;
}

int hfg_io_pwrite_all(int fd, const void *p, size_t n, uint64_t off, int *direct) {
  int e = injected();
  if (e) return -e;
  const char *b = p;
  while (n) {
    ssize_t w = pwrite(fd, b, n, (off_t)off);
    if (w < 0) {
      if (errno == EINTR) continue;
      if (errno == EINVAL && *direct) {
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_DIRECT) < 0) return -errno;
        *direct = 0;
        continue;
      }
      return -errno;
    }
    b += w;
    off += (uint64_t)w;
    n -= (size_t)w;
  }
  return 0;
}

int hfg_io_ftruncate(int fd, uint64_t len) {
  int e = injected();
  if (e) return -e;
  return ftruncate(fd, (off_t)len) ? -errno : 0;
}

int hfg_io_fsync(int fd) {
  int e = injected();
  if (e) return -e;
  return fsync(fd) ? -errno : 0;
}

int hfg_io_rename(const char *from, const char *to) {
  int e = injected();
  if (e) return -e;
  return rename(from, to) ? -errno : 0;
}

void hfg_io_writeback(int fd, uint64_t off, uint64_t len) {
#ifdef SYNC_FILE_RANGE_WRITE
  /* starts the write-out of these dirty pages and returns: the fsync at the end
   * finds them on disk or on their way (a failure shows there) */
  (void)sync_file_range(fd, (off_t)off, (off_t)len, SYNC_FILE_RANGE_WRITE);
#else
  (void)fd, (void)off, (void)len;
#endif
}

int hfg_io_fsync_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return -errno;
  int rc = hfg_io_fsync(fd);
  close(fd);
  return rc;
}
