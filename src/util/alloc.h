/*
 * All library allocation goes through these wrappers so tests can fail the
 * Nth allocation (SQLite-style fault injection) and prove that every error
 * path frees what it took and reports HFG_ENOMEM.
 *
 * hfg_free(NULL) is a no-op. hfg_realloc(p, 0) frees p and returns NULL.
 */
#ifndef HFG_UTIL_ALLOC_H
#define HFG_UTIL_ALLOC_H

#include <stddef.h>

void *hfg_malloc(size_t n);
void *hfg_calloc(size_t count, size_t size);
void *hfg_realloc(void *p, size_t n);
void hfg_free(void *p);
/* n bytes at a multiple of align (a power of two, at least sizeof(void *));
 * freed by hfg_free. */
void *hfg_malloc_aligned(size_t align, size_t n);
char *hfg_strdup(const char *s);
void *hfg_memdup(const void *p, size_t n);

/* Fault injection (tests only). After hfg_fault_alloc_arm(n), the nth call to
 * hfg_malloc/calloc/realloc/strdup from now on (n >= 1) fails; later calls
 * succeed again. hfg_fault_alloc_arm(0) disarms. hfg_fault_alloc_fired()
 * tells whether the armed failure was delivered. */
void hfg_fault_alloc_arm(long n);
int hfg_fault_alloc_fired(void);

#endif
