/* util/aout: chunks written by the output thread land at their offsets in
 * submit order, with every buffer of the ring reused many times, with and
 * without O_DIRECT; a failed write stops the output and is reported with its
 * offset by every later call. */
#define _GNU_SOURCE /* O_DIRECT */
#include "t.h"
#include "util/aout.h"
#include "util/fsio.h"

#include <errno.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 8192u

/* chunk k holds bytes of (k * 31 + i) mod 251: no two neighbours alike */
static void fill(uint8_t *p, unsigned k) {
  for (unsigned i = 0; i < CHUNK; i++) p[i] = (uint8_t)((k * 31u + i) % 251u);
}

static void write_chunks(int direct) {
  const char *path = t_tmp_path("test_aout", "out.bin");
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | (direct ? O_DIRECT : 0), 0600);
  if (fd < 0 && direct) {
    fprintf(stderr, "  O_DIRECT not taken here: page cache only\n");
    return;
  }
  REQUIRE(fd >= 0);
  const unsigned depths[] = {1, 2, 4, 7};
  for (size_t d = 0; d < sizeof depths / sizeof *depths; d++) {
    REQUIRE(ftruncate(fd, 0) == 0);
    hfg_aout *a = hfg_aout_new(fd, direct, CHUNK, 4096, depths[d]);
    REQUIRE(a != NULL);
    const unsigned n = 300; /* every ring slot reused dozens of times */
    for (unsigned k = 0; k < n; k++) {
      uint8_t *b = hfg_aout_buf(a);
      REQUIRE(b != NULL);
      fill(b, k);
      CHECK_EQ_INT(hfg_aout_submit(a, CHUNK, (uint64_t)k * CHUNK), 0);
    }
    CHECK_EQ_INT(hfg_aout_drain(a), 0);
    CHECK_EQ_INT(hfg_aout_drain(a), 0); /* again: nothing queued */
    hfg_aout_free(a);
    size_t len;
    uint8_t *got = t_read_file(path, &len);
    REQUIRE(got != NULL);
    CHECK(len == (size_t)n * CHUNK);
    uint8_t want[CHUNK];
    unsigned bad = 0;
    for (unsigned k = 0; k < n && (size_t)(k + 1) * CHUNK <= len; k++) {
      fill(want, k);
      if (memcmp(got + (size_t)k * CHUNK, want, CHUNK)) bad++;
    }
    if (bad) fprintf(stderr, "  depth %u, direct %d: %u chunks wrong\n", depths[d], direct, bad);
    CHECK_EQ_INT((int)bad, 0);
    free(got);
  }
  close(fd);
  unlink(path);
}

TEST(aout_chunks_in_place_page_cache) { write_chunks(0); }
TEST(aout_chunks_in_place_direct) { write_chunks(1); }

/* The 3rd write fails (ENOSPC): submit or drain reports it, nothing after it
 * is written, and its offset is the failed chunk's. */
TEST(aout_failed_write_stops) {
  const char *path = t_tmp_path("test_aout", "fail.bin");
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  REQUIRE(fd >= 0);
  hfg_aout *a = hfg_aout_new(fd, 0, CHUNK, 4096, 2);
  REQUIRE(a != NULL);
  hfg_fault_io_arm(3, ENOSPC);
  int first = 0;
  unsigned k;
  for (k = 0; k < 50; k++) {
    uint8_t *b = hfg_aout_buf(a);
    if (!b) break;
    fill(b, k);
    if ((first = hfg_aout_submit(a, CHUNK, (uint64_t)k * CHUNK)) != 0) break;
  }
  int rc = hfg_aout_drain(a);
  hfg_fault_io_arm(0, 0);
  CHECK(k < 50);             /* the output stopped */
  CHECK_EQ_INT(rc, -ENOSPC); /* drain says why, however the loop ended */
  CHECK(first == 0 || first == -ENOSPC);
  CHECK_EQ_INT((int)hfg_aout_failed_at(a), (int)(2 * CHUNK));
  CHECK(hfg_aout_buf(a) == NULL);
  CHECK_EQ_INT(hfg_aout_submit(a, CHUNK, 0), -ENOSPC);
  hfg_aout_free(a);
  struct stat st;
  REQUIRE(fstat(fd, &st) == 0);
  CHECK(st.st_size == 2 * CHUNK); /* the two before it, nothing after */
  close(fd);
  unlink(path);
}

/* A write O_DIRECT refuses (a length off the unit: EINVAL) goes on through
 * the page cache: the bytes are all there and the output says it left
 * O_DIRECT. */
TEST(aout_direct_refused_falls_back) {
  const char *path = t_tmp_path("test_aout", "refused.bin");
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DIRECT, 0600);
  if (fd < 0) {
    fprintf(stderr, "  O_DIRECT not taken here: nothing to refuse\n");
    return;
  }
  hfg_aout *a = hfg_aout_new(fd, 1, CHUNK, 4096, 2);
  REQUIRE(a != NULL);
  uint8_t *b = hfg_aout_buf(a);
  REQUIRE(b != NULL);
  fill(b, 0);
  CHECK_EQ_INT(hfg_aout_submit(a, CHUNK, 0), 0); /* a whole unit: direct */
  b = hfg_aout_buf(a);
  REQUIRE(b != NULL);
  fill(b, 1);
  CHECK_EQ_INT(hfg_aout_submit(a, 1000, CHUNK), 0); /* 1000 bytes: refused, then buffered */
  CHECK_EQ_INT(hfg_aout_drain(a), 0);
  CHECK_EQ_INT(hfg_aout_direct(a), 0);
  hfg_aout_free(a);
  CHECK_EQ_INT(fcntl(fd, F_GETFL) & O_DIRECT, 0);
  close(fd);
  size_t len;
  uint8_t *got = t_read_file(path, &len);
  REQUIRE(got != NULL);
  uint8_t want[CHUNK];
  CHECK(len == CHUNK + 1000);
  fill(want, 0);
  CHECK(len >= CHUNK && !memcmp(got, want, CHUNK));
  fill(want, 1);
  CHECK(len == CHUNK + 1000 && !memcmp(got + CHUNK, want, 1000));
  free(got);
  unlink(path);
}

T_MAIN
