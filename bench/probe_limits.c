/*
 * probe_limits: this machine's limits for the benchmark's own data, measured in
 * the same run as the tools (research/limits.md explains the method and the
 * model; these probes repeat its key measurements on the actual input and on
 * the actual KeyValue blocks).
 *
 *   probe_limits read FILE             read() of FILE through the page cache
 *   probe_limits read-direct FILE      O_DIRECT read of FILE (the disk, no cache)
 *   probe_limits write DIR SIZE        write() of SIZE random bytes + fdatasync
 *   probe_limits blocks [--max-mb N] [--kinds K,K...] HFILE...
 *       walks the HFiles' blocks, counts the data blocks' KeyValue bytes (all of
 *       them; of an encoded file, DATABLKE blocks, the encoded bytes the codec
 *       compresses: kv_bytes is then the encoded size, encoded_blocks > 0), keeps
 *       the first N MB of data blocks (NONE-compressed files only)
 *       and times on them: lz4 (LZ4_compress_default, what Hadoop's Lz4Codec
 *       calls), gzip via ISA-L igzip level 1, gzip via zlib levels 1 and 6,
 *       and CRC32C (ISA-L crc32_iscsi) per 16 KB chunk; on 1 thread and on 2
 *       threads (aggregate). --kinds times only those (e.g. lz4,crc32c: the
 *       few seconds bench/run.sh spends beside each timed build, so that the
 *       model and the build see the same machine).
 *
 * Each figure is the best and the median of 3 repetitions, each lasting at
 * least 0.3 s. Output is key=value lines (MB = 10^6 bytes).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <lz4.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#define REPS 3
#define MIN_SECONDS 0.3

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void report(const char *key, double *rates, int n) {
  qsort(rates, (size_t)n, sizeof *rates, cmp_double);
  printf("%s_best_mbs=%.1f\n%s_median_mbs=%.1f\n", key, rates[n - 1], key, rates[n / 2]);
}

static void die(const char *what) {
  fprintf(stderr, "probe_limits: %s: %s\n", what, strerror(errno));
  exit(1);
}

/* ---- read / write --------------------------------------------------------- */

static int probe_read(const char *path, int direct) {
  size_t bufsz = 8u << 20;
  void *buf;
  if (posix_memalign(&buf, 4096, bufsz)) die("memory");
  double rates[REPS];
  for (int r = 0; r < REPS; r++) {
    int fd = open(path, O_RDONLY | (direct ? O_DIRECT : 0));
    if (fd < 0) die(path);
    uint64_t total = 0;
    double t0 = now();
    for (;;) {
      ssize_t n = read(fd, buf, bufsz);
      if (n < 0) die("read");
      if (n == 0) break;
      total += (uint64_t)n;
    }
    double t = now() - t0;
    close(fd);
    rates[r] = (double)total / 1e6 / t;
  }
  report(direct ? "read_direct" : "read_cached", rates, REPS);
  free(buf);
  return 0;
}

static int probe_write(const char *dir, uint64_t size) {
  size_t bufsz = 1u << 20;
  uint64_t *buf = malloc(bufsz);
  if (!buf) die("memory");
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < bufsz / 8; i++) { /* xorshift: incompressible, as compressed blocks are */
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    buf[i] = x;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/probe_write.%d", dir, (int)getpid());
  double rates[2];
  for (int r = 0; r < 2; r++) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) die(path);
    double t0 = now();
    for (uint64_t done = 0; done < size; done += bufsz) {
      buf[0] = done; /* no two chunks alike */
      if (write(fd, buf, bufsz) != (ssize_t)bufsz) die("write");
    }
    if (fdatasync(fd)) die("fdatasync");
    double t = now() - t0;
    close(fd);
    unlink(path);
    rates[r] = (double)size / 1e6 / t;
  }
  report("write_fdatasync", rates, 2);
  free(buf);
  return 0;
}

/* ---- HFile data blocks ---------------------------------------------------- */

typedef struct block {
  const uint8_t *p;
  size_t n;
} block;

static block *blocks;
static size_t nblocks, cap_blocks, kept_bytes, encoded_blocks;

static uint32_t be32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Block header, HFile v2/v3 with HBase checksums (33 bytes): magic[8],
 * onDiskSizeWithoutHeader, uncompressedSizeWithoutHeader, prevBlockOffset(8),
 * checksumType(1), bytesPerChecksum, onDiskDataSizeWithHeader. The next block
 * starts onDiskSizeWithoutHeader bytes after the header. */
static void walk(const char *path, uint64_t max_keep, uint64_t *kv_bytes, uint64_t *file_bytes,
                 int *compressed) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) die(path);
  struct stat st;
  if (fstat(fd, &st)) die(path);
  uint8_t *f = malloc((size_t)st.st_size + 1);
  if (!f) die("memory");
  size_t got = 0;
  while (got < (size_t)st.st_size) {
    ssize_t n = read(fd, f + got, (size_t)st.st_size - got);
    if (n <= 0) die("read");
    got += (size_t)n;
  }
  close(fd);
  *file_bytes += (uint64_t)st.st_size;
  int kept = 0;
  for (size_t off = 0; off + 33 <= got;) {
    const uint8_t *h = f + off;
    if (!memcmp(h, "TRABLK\"$", 8)) break;
    uint32_t ondisk = be32(h + 8), usize = be32(h + 12), data_with_header = be32(h + 29);
    if (off + 33 + ondisk > got) break;
    int encoded = !memcmp(h, "DATABLKE", 8);
    if (encoded || !memcmp(h, "DATABLK*", 8)) {
      *kv_bytes += usize;
      encoded_blocks += (size_t)encoded;
      if (data_with_header - 33 != usize) *compressed = 1;
      else if (kept_bytes < max_keep) {
        if (nblocks == cap_blocks) {
          cap_blocks = cap_blocks ? cap_blocks * 2 : 1024;
          blocks = realloc(blocks, cap_blocks * sizeof *blocks);
          if (!blocks) die("memory");
        }
        blocks[nblocks].p = h + 33;
        blocks[nblocks].n = usize;
        nblocks++;
        kept_bytes += usize;
        kept = 1;
      }
    }
    off += 33 + ondisk;
  }
  if (!kept) free(f); /* blocks point into f otherwise: kept for the process */
}

typedef enum { K_LZ4, K_ISAL1, K_ZLIB1, K_ZLIB6, K_CRC32C, K_COUNT } kind;
static const char *const KIND_NAME[K_COUNT] = {"lz4", "igzip1", "zlib1", "zlib6", "crc32c"};

typedef struct job {
  kind k;
  double seconds;
  uint64_t in_bytes, out_bytes;
} job;

static size_t compress_one(kind k, const block *b, uint8_t *out, size_t cap, void *state) {
  switch (k) {
    case K_LZ4:
      return (size_t)LZ4_compress_default((const char *)b->p, (char *)out, (int)b->n, (int)cap);
    case K_ISAL1: {
      struct isal_zstream *s = state;
      uint8_t *lvl = (uint8_t *)(s + 1);
      isal_deflate_stateless_init(s);
      s->level = 1;
      s->level_buf = lvl;
      s->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
      s->gzip_flag = IGZIP_GZIP;
      s->next_in = (uint8_t *)b->p;
      s->avail_in = (uint32_t)b->n;
      s->next_out = out;
      s->avail_out = (uint32_t)cap;
      if (isal_deflate_stateless(s) != COMP_OK) return 0;
      return s->total_out;
    }
    case K_ZLIB1:
    case K_ZLIB6: {
      z_stream *z = state;
      deflateReset(z);
      z->next_in = (Bytef *)b->p;
      z->avail_in = (uInt)b->n;
      z->next_out = out;
      z->avail_out = (uInt)cap;
      if (deflate(z, Z_FINISH) != Z_STREAM_END) return 0;
      return z->total_out;
    }
    case K_CRC32C: {
      uint32_t c = 0;
      for (size_t o = 0; o < b->n; o += 16384) {
        size_t n = b->n - o < 16384 ? b->n - o : 16384;
        c ^= crc32_iscsi((unsigned char *)b->p + o, (int)n, 0xFFFFFFFFu);
      }
      out[0] = (uint8_t)c;
      return 4 * ((b->n + 16383) / 16384);
    }
    default: return 0;
  }
}

static void *run_job(void *arg) {
  job *j = arg;
  size_t cap = 2 * 65536 + 4096;
  for (size_t i = 0; i < nblocks; i++)
    if (blocks[i].n * 2 + 4096 > cap) cap = blocks[i].n * 2 + 4096;
  uint8_t *out = malloc(cap);
  void *state = NULL;
  if (j->k == K_ISAL1) {
    state = malloc(sizeof(struct isal_zstream) + ISAL_DEF_LVL1_DEFAULT);
  } else if (j->k == K_ZLIB1 || j->k == K_ZLIB6) {
    z_stream *z = calloc(1, sizeof *z);
    if (z && deflateInit2(z, j->k == K_ZLIB1 ? 1 : 6, Z_DEFLATED, 15 + 16, 8,
                          Z_DEFAULT_STRATEGY) != Z_OK) die("deflateInit2");
    state = z;
  }
  if (!out || (j->k != K_LZ4 && j->k != K_CRC32C && !state)) die("memory");
  j->in_bytes = j->out_bytes = 0;
  double t0 = now();
  do {
    for (size_t i = 0; i < nblocks; i++) {
      size_t n = compress_one(j->k, &blocks[i], out, cap, state);
      if (!n) {
        fprintf(stderr, "probe_limits: %s failed on a block\n", KIND_NAME[j->k]);
        exit(1);
      }
      j->in_bytes += blocks[i].n;
      j->out_bytes += n;
    }
    j->seconds = now() - t0;
  } while (j->seconds < MIN_SECONDS);
  if (j->k == K_ZLIB1 || j->k == K_ZLIB6) deflateEnd(state);
  free(state);
  free(out);
  return NULL;
}

static int probe_blocks(int argc, char **argv) {
  uint64_t max_keep = 32ull << 20, kv = 0, fbytes = 0;
  int compressed = 0, first = 0, want[K_COUNT];
  for (int k = 0; k < K_COUNT; k++) want[k] = 1;
  while (first + 1 < argc && argv[first][0] == '-') {
    if (!strcmp(argv[first], "--max-mb")) {
      max_keep = strtoull(argv[first + 1], NULL, 10) << 20;
    } else if (!strcmp(argv[first], "--kinds")) {
      char list[256];
      snprintf(list, sizeof list, ",%s,", argv[first + 1]);
      int any = 0;
      for (int k = 0; k < K_COUNT; k++) {
        char name[32];
        snprintf(name, sizeof name, ",%s,", KIND_NAME[k]);
        want[k] = strstr(list, name) != NULL;
        any |= want[k];
      }
      if (!any) {
        fprintf(stderr, "probe_limits: --kinds %s names none of lz4,igzip1,zlib1,zlib6,crc32c\n",
                argv[first + 1]);
        return 2;
      }
    } else {
      fprintf(stderr, "probe_limits: blocks: unknown option %s\n", argv[first]);
      return 2;
    }
    first += 2;
  }
  for (int i = first; i < argc; i++) walk(argv[i], max_keep, &kv, &fbytes, &compressed);
  printf("kv_bytes=%llu\nfile_bytes=%llu\n", (unsigned long long)kv, (unsigned long long)fbytes);
  if (compressed || !nblocks) {
    fprintf(stderr, "probe_limits: blocks needs NONE-compressed HFiles\n");
    return 1;
  }
  printf("sample_blocks=%zu\nsample_bytes=%zu\nencoded_blocks=%zu\n", nblocks, kept_bytes,
         encoded_blocks);
  for (int k = 0; k < K_COUNT; k++) {
    if (!want[k]) continue;
    double r1[REPS], r2[REPS];
    double ratio = 0;
    for (int r = 0; r < REPS; r++) {
      job j = {(kind)k, 0, 0, 0};
      run_job(&j);
      r1[r] = (double)j.in_bytes / 1e6 / j.seconds;
      ratio = (double)j.in_bytes / (double)j.out_bytes;
      job jj[2] = {{(kind)k, 0, 0, 0}, {(kind)k, 0, 0, 0}};
      pthread_t t[2];
      for (int w = 0; w < 2; w++)
        if (pthread_create(&t[w], NULL, run_job, &jj[w])) die("pthread_create");
      for (int w = 0; w < 2; w++) pthread_join(t[w], NULL);
      double s = jj[0].seconds > jj[1].seconds ? jj[0].seconds : jj[1].seconds;
      r2[r] = (double)(jj[0].in_bytes + jj[1].in_bytes) / 1e6 / s;
    }
    char key[64];
    snprintf(key, sizeof key, "%s_1t", KIND_NAME[k]);
    report(key, r1, REPS);
    snprintf(key, sizeof key, "%s_2t", KIND_NAME[k]);
    report(key, r2, REPS);
    if (k != K_CRC32C) printf("%s_ratio=%.3f\n", KIND_NAME[k], ratio);
  }
  return 0;
}

static uint64_t parse_size(const char *s) {
  char *end;
  double v = strtod(s, &end);
  switch (*end) {
    case 'k': case 'K': v *= 1024; break;
    case 'm': case 'M': v *= 1024 * 1024; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
    default: break;
  }
  return (uint64_t)v;
}

int main(int argc, char **argv) {
  if (argc >= 3 && !strcmp(argv[1], "read")) return probe_read(argv[2], 0);
  if (argc >= 3 && !strcmp(argv[1], "read-direct")) return probe_read(argv[2], 1);
  if (argc >= 4 && !strcmp(argv[1], "write")) return probe_write(argv[2], parse_size(argv[3]));
  if (argc >= 3 && !strcmp(argv[1], "blocks")) return probe_blocks(argc - 2, argv + 2);
  fprintf(stderr,
          "usage: probe_limits read FILE | read-direct FILE | write DIR SIZE |\n"
          "       blocks [--max-mb N] [--kinds K,K...] HFILE...\n");
  return 2;
}
