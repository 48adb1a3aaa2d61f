#include "util/alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Countdown to the failing allocation; 0 = disarmed. Atomic so that threaded
 * stages can be fault-tested without data races. */
static _Atomic long fault_countdown = 0;
static _Atomic int fault_fired = 0;

void hfg_fault_alloc_arm(long n) {
  atomic_store(&fault_fired, 0);
  atomic_store(&fault_countdown, n);
}

int hfg_fault_alloc_fired(void) { return atomic_load(&fault_fired); }

static int should_fail(void) {
  long c = atomic_load(&fault_countdown);
  while (c > 0) {
    if (atomic_compare_exchange_weak(&fault_countdown, &c, c - 1)) {
      if (c == 1) {
        atomic_store(&fault_fired, 1);
        return 1;
      }
      return 0;
    }
  }
  return 0;
}

void *hfg_malloc(size_t n) {
  if (should_fail()) return NULL;
  return malloc(n ? n : 1);
}

void *hfg_calloc(size_t count, size_t size) {
  if (should_fail()) return NULL;
  return calloc(count ? count : 1, size ? size : 1);
}

void *hfg_realloc(void *p, size_t n) {
  if (n == 0) {
    free(p);
    return NULL;
  }
  if (should_fail()) return NULL;
  return realloc(p, n);
}

void *hfg_malloc_aligned(size_t align, size_t n) {
  if (should_fail()) return NULL;
  void *p = NULL;
  return posix_memalign(&p, align, n ? n : 1) ? NULL : p;
}

void hfg_free(void *p) { free(p); }


char *hfg_strdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = hfg_malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

void *hfg_memdup(const void *p, size_t n) {
  void *d = hfg_malloc(n);
  if (d && n) memcpy(d, p, n);
  return d;
}
