/*
 * Plain and compressed byte sources for the record reader (contract in
 * record_input.h). Plain input is read with read(2) straight into the
 * reader's buffer; compressed input is read in 256 KiB chunks and handed to
 * the decoder of its format (record_input_codecs.c).
 */
#include "input/record_input.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "util/alloc.h"

#define ZBUF_SIZE (256u * 1024u)

static int read_fd(hfg_rin *in, void *dst, size_t n, size_t *got, hfg_err *err) {
  if (n > (size_t)SSIZE_MAX) n = (size_t)SSIZE_MAX;
  for (;;) {
    ssize_t k = read(in->fd, dst, n);
    if (k >= 0) {
      *got = (size_t)k;
      in->bytes_in += (uint64_t)k;
      return 0;
    }
    if (errno == EINTR) continue;
    return hfg_err_set(err, HFG_EIO, "%s: read failed: %s", in->name, strerror(errno));
  }
}

int hfg_rin_fill(hfg_rin *in, hfg_err *err) {
  if (in->zpos < in->zlen || in->raw_eof) return 0;
  size_t k = 0;
  int rc = read_fd(in, in->zbuf, in->zcap, &k, err);
  if (rc) return rc;
  in->zpos = 0;
  in->zlen = k;
  if (k == 0) in->raw_eof = 1;
  return 0;
}

static int starts(const hfg_rin *in, const char *magic, size_t n) {
  return in->npeek >= n && memcmp(in->peek, magic, n) == 0;
}

/* Formats recognised by their first bytes: read, or refused by name. */
static hfg_rin_kind sniff(const hfg_rin *in, const char **refused, const char **tool) {
  *refused = NULL;
  const uint8_t *p = in->peek;
  if (starts(in, "\x1f\x8b", 2)) return HFG_RIN_GZIP;
  if (starts(in, "\x28\xb5\x2f\xfd", 4)) return HFG_RIN_ZSTD;
  if (in->npeek >= 4 && (p[0] & 0xf0) == 0x50 && !memcmp(p + 1, "\x2a\x4d\x18", 3))
    return HFG_RIN_ZSTD; /* a skippable frame first (zstd's format; lz4 shares it) */
  if (starts(in, "BZh", 3) && in->npeek >= 4 && p[3] >= '1' && p[3] <= '9') return HFG_RIN_BZIP2;
  if (starts(in, "\xfd" "7zXZ\x00", 6)) return HFG_RIN_XZ;
  static const struct {
    const char *magic;
    size_t n;
    const char *name, *tool;
  } no[] = {
      {"\x04\x22\x4d\x18", 4, "lz4", "lz4 -dc"},
      {"\x02\x21\x4c\x18", 4, "lz4 (legacy format)", "lz4 -dc"},
      {"\xff\x06\x00\x00sNaPpY", 10, "snappy (framed)", "a snappy tool"},
      {"PK\x03\x04", 4, "zip", "unzip -p"},
      {"PK\x05\x06", 4, "zip", "unzip -p"},
      {"PK\x07\x08", 4, "zip", "unzip -p"},
      {"7z\xbc\xaf\x27\x1c", 6, "7z", "7z x -so"},
      {"Rar!\x1a\x07", 6, "rar", "unrar p"},
      {"LZIP\x01", 5, "lzip", "lzip -dc"},
      {"\x1f\x9d", 2, "Unix compress (.Z)", "uncompress -c"},
  };
  for (size_t i = 0; i < sizeof no / sizeof *no; i++)
    if (starts(in, no[i].magic, no[i].n)) {
      *refused = no[i].name;
      *tool = no[i].tool;
      break;
    }
  return HFG_RIN_PLAIN;
}

int hfg_rin_open(hfg_rin *in, const char *path, const char *display_name, hfg_err *err) {
  memset(in, 0, sizeof *in);
  in->name = display_name;
  in->fd = -1;
  if (strcmp(path, "-") == 0) {
    in->fd = STDIN_FILENO;
  } else {
    in->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (in->fd < 0)
      return hfg_err_set(err, HFG_EIO, "%s: cannot open: %s", display_name, strerror(errno));
    in->owns_fd = 1;
  }
  /* Sniff the first bytes (a pipe may deliver them a few at a time). */
  while (in->npeek < HFG_RIN_SNIFF) {
    size_t got = 0;
    int rc = read_fd(in, in->peek + in->npeek, HFG_RIN_SNIFF - in->npeek, &got, err);
    if (rc) {
      hfg_rin_close(in);
      return rc;
    }
    if (got == 0) break;
    in->npeek += got;
  }
  const char *refused, *tool = NULL;
  in->kind = sniff(in, &refused, &tool);
  if (refused) {
    hfg_rin_close(in);
    return hfg_err_set(err, HFG_EUNSUPPORTED,
                       "%s: the input is %s-compressed, which hfilegen does not read (it reads "
                       "plain, gzip, zstd, bzip2 and xz input): decompress it first, e.g. with %s",
                       display_name, refused, tool);
  }
  if (in->kind == HFG_RIN_PLAIN) return 0;
  in->zcap = ZBUF_SIZE;
  in->zbuf = hfg_malloc(in->zcap);
  if (!in->zbuf) {
    hfg_rin_close(in);
    return hfg_err_set(err, HFG_ENOMEM, "%s: out of memory", display_name);
  }
  memcpy(in->zbuf, in->peek, in->npeek);
  in->zlen = in->npeek;
  in->npeek = 0;
  int rc = hfg_rin_dec_open(in, err);
  if (rc) hfg_rin_close(in);
  return rc;
}

int hfg_rin_open_at(hfg_rin *in, const char *path, const char *display_name, uint64_t offset,
                    hfg_err *err) {
  memset(in, 0, sizeof *in);
  in->name = display_name;
  in->fd = open(path, O_RDONLY | O_CLOEXEC);
  if (in->fd < 0)
    return hfg_err_set(err, HFG_EIO, "%s: cannot open: %s", display_name, strerror(errno));
  in->owns_fd = 1;
  in->kind = HFG_RIN_PLAIN;
  if (lseek(in->fd, (off_t)offset, SEEK_SET) < 0) {
    int e = errno;
    hfg_rin_close(in);
    return hfg_err_set(err, HFG_EIO, "%s: cannot seek to byte %llu: %s", display_name,
                       (unsigned long long)offset, strerror(e));
  }
  return 0;
}

int hfg_rin_read(hfg_rin *in, char *dst, size_t n, size_t *got, hfg_err *err) {
  *got = 0;
  if (in->kind != HFG_RIN_PLAIN) return hfg_rin_dec_read(in, dst, n, got, err);
  if (in->peek_off < in->npeek) {
    size_t k = in->npeek - in->peek_off;
    if (k > n) k = n;
    memcpy(dst, in->peek + in->peek_off, k);
    in->peek_off += k;
    *got = k;
    return 0;
  }
  return read_fd(in, dst, n, got, err);
}

void hfg_rin_close(hfg_rin *in) {
  hfg_rin_dec_close(in);
  hfg_free(in->zbuf);
  in->zbuf = NULL;
  if (in->owns_fd && in->fd >= 0) close(in->fd);
  in->fd = -1;
  in->owns_fd = 0;
}
