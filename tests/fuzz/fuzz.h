/*
 * Shared by the fuzz targets (tests/fuzz/fuzz_*.c). Each target defines
 * LLVMFuzzerTestOneInput; it is linked either with libFuzzer (clang,
 * -DHFG_FUZZ=ON) or with replay.c, a plain main() that runs every file of the
 * committed corpora through it (ctest, gcc, release and sanitizer builds).
 * A target aborts when an invariant of the code under test does not hold, so
 * that both libFuzzer and the replay report it.
 */
#ifndef HFG_TESTS_FUZZ_H
/* built with -D_GNU_SOURCE (memfd_create): see tests/CMakeLists.txt */
#define HFG_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_ASSERT(cond)                                                              \
  do {                                                                               \
    if (!(cond)) {                                                                   \
      fprintf(stderr, "%s:%d: fuzz invariant failed: %s\n", __FILE__, __LINE__, #cond); \
      abort();                                                                       \
    }                                                                                \
  } while (0)

/* The code under test reads paths: hand it an anonymous in-memory file as
 * /proc/self/fd/N (opening that path gives a fresh offset). Returns the fd
 * (close it when done) or -1. */
static inline int fz_memfile(const uint8_t *p, size_t n, char *path, size_t cap) {
  int fd = memfd_create("hfg-fuzz", MFD_CLOEXEC);
  if (fd < 0) return -1;
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w <= 0) {
      close(fd);
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  snprintf(path, cap, "/proc/self/fd/%d", fd);
  return fd;
}

#endif
