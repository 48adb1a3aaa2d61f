/*
 * A tiny unit-test harness. Each test file defines TEST(name) functions; they
 * register themselves and run from main() (provided here via T_MAIN). A failed
 * CHECK reports file:line and the expression and marks the test failed; the run
 * ends with the plain line "N passed, N failed" and exits non-zero on failure.
 */
#ifndef HFG_T_H
#define HFG_T_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*t_fn)(void);
struct t_case {
  const char *name;
  t_fn fn;
};
#define T_MAX 512
extern struct t_case t_cases[T_MAX];
extern int t_ncases;
extern int t_failed_now;

#define TEST(name)                                                   \
  static void test_##name(void);                                     \
  __attribute__((constructor)) static void reg_##name(void) {        \
    if (t_ncases < T_MAX) t_cases[t_ncases++] = (struct t_case){#name, test_##name}; \
  }                                                                  \
  static void test_##name(void)

#define CHECK(cond)                                                              \
  do {                                                                           \
    if (!(cond)) {                                                               \
      fprintf(stderr, "  %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      t_failed_now = 1;                                                          \
    }                                                                            \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                            \
  do {                                                                                \
    long long _a = (long long)(a), _b = (long long)(b);                               \
    if (_a != _b) {                                                                   \
      fprintf(stderr, "  %s:%d: CHECK failed: %s == %s (%lld vs %lld)\n", __FILE__, \
              __LINE__, #a, #b, _a, _b);                                              \
      t_failed_now = 1;                                                               \
    }                                                                                 \
  } while (0)

#define CHECK_MEM(a, b, n)                                                          \
  do {                                                                              \
    if (memcmp((a), (b), (n)) != 0) {                                               \
      fprintf(stderr, "  %s:%d: CHECK failed: memcmp(%s, %s, %s)\n", __FILE__, __LINE__, \
              #a, #b, #n);                                                          \
      t_failed_now = 1;                                                             \
    }                                                                               \
  } while (0)

/* Aborts the current test function. */
#define REQUIRE(cond)  \
  do {                 \
    CHECK(cond);       \
    if (t_failed_now) return; \
  } while (0)

/* xorshift64: the tests' reproducible pseudo-random numbers (*s: nonzero state) */
static inline uint64_t t_rand(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

/* The whole file at path in a malloc'd buffer (one byte more, for callers
 * that terminate it) and its length in *len, or NULL. */
static inline uint8_t *t_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *p = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *len = n >= 0 ? (size_t)n : 0;
  return p;
}

#ifdef HFG_BINARY_DIR
#include <sys/stat.h>
/* BINARY_DIR/<dir>.tmp/<name>, the directory made if need be: the tests' scratch
 * files. The result lives for the next 31 calls (a ring of buffers). */
static inline const char *t_tmp_path(const char *dir, const char *name) {
  static char p[32][1024];
  static int k;
  char d[600];
  snprintf(d, sizeof d, "%s/%s.tmp", HFG_BINARY_DIR, dir);
  mkdir(d, 0755);
  char *s = p[k++ % 32];
  snprintf(s, 1024, "%s/%s", d, name);
  return s;
}
#endif

#define T_MAIN                                                          \
  struct t_case t_cases[T_MAX];                                         \
  int t_ncases;                                                         \
  int t_failed_now;                                                     \
  int main(int argc, char **argv) {                                     \
    int passed = 0, failed = 0;                                         \
    for (int i = 0; i < t_ncases; i++) {                                \
      if (argc > 1 && strcmp(argv[1], t_cases[i].name) != 0) continue;  \
      t_failed_now = 0;                                                 \
      t_cases[i].fn();                                                  \
      if (t_failed_now) {                                               \
        failed++;                                                       \
        fprintf(stderr, "FAIL %s\n", t_cases[i].name);                  \
      } else {                                                          \
        passed++;                                                       \
      }                                                                 \
    }                                                                   \
    printf("%d passed, %d failed\n", passed, failed);                   \
    return failed ? 1 : 0;                                              \
  }

#endif
