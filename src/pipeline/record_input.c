/*
 * Plain and gzip byte sources for the record reader (contract in
 * record_input.h). Plain input is read with read(2) straight into the
 * reader's buffer; gzip input is read in 256 KiB compressed chunks.
 */
#include "pipeline/record_input.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "util/alloc.h"

#define ZBUF_SIZE (256u * 1024u)

/* zlib's allocator hooks, so fault injection reaches zlib's state too. */
static voidpf z_alloc(voidpf opaque, uInt items, uInt size) {
  (void)opaque;
  if (size && items > SIZE_MAX / size) return Z_NULL;
  return hfg_malloc((size_t)items * size);
}

static void z_free(voidpf opaque, voidpf p) {
  (void)opaque;
  hfg_free(p);
}

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
  /* Sniff: up to two bytes (a pipe may deliver them one at a time). */
  while (in->npeek < 2) {
    size_t got = 0;
    int rc = read_fd(in, in->peek + in->npeek, 2 - in->npeek, &got, err);
    if (rc) {
      hfg_rin_close(in);
      return rc;
    }
    if (got == 0) break;
    in->npeek += got;
  }
  if (in->npeek == 2 && in->peek[0] == 0x1f && in->peek[1] == 0x8b) {
    in->is_gz = 1;
    in->zcap = ZBUF_SIZE;
    in->zbuf = hfg_malloc(in->zcap);
    if (!in->zbuf) {
      hfg_rin_close(in);
      return hfg_err_set(err, HFG_ENOMEM, "%s: out of memory", display_name);
    }
    memcpy(in->zbuf, in->peek, 2);
    in->npeek = 0;
    in->zs.zalloc = z_alloc;
    in->zs.zfree = z_free;
    in->zs.next_in = in->zbuf;
    in->zs.avail_in = 2;
    int zr = inflateInit2(&in->zs, 15 + 16);
    if (zr != Z_OK) {
      hfg_rin_close(in);
      return hfg_err_set(err, zr == Z_MEM_ERROR ? HFG_ENOMEM : HFG_ECORRUPT,
                         "%s: cannot start gzip decoding (zlib %d)", display_name, zr);
    }
    in->zs_ready = 1;
  }
  return 0;
}

static int read_gz(hfg_rin *in, char *dst, size_t n, size_t *got, hfg_err *err) {
  z_stream *zs = &in->zs;
  if (n > UINT_MAX) n = UINT_MAX;
  zs->next_out = (Bytef *)dst;
  zs->avail_out = (uInt)n;
  while (zs->avail_out > 0) {
    if (zs->avail_in == 0 && !in->raw_eof) {
      size_t k = 0;
      int rc = read_fd(in, in->zbuf, in->zcap, &k, err);
      if (rc) return rc;
      if (k == 0) in->raw_eof = 1;
      zs->next_in = in->zbuf;
      zs->avail_in = (uInt)k;
    }
    if (in->member_end) {
      if (zs->avail_in == 0) {
        if (in->raw_eof) break; /* clean end after the last member */
        continue;
      }
      /* more bytes: they must form another member */
      if (inflateReset(zs) != Z_OK)
        return hfg_err_set(err, HFG_ECORRUPT, "%s: gzip reset failed", in->name);
      in->member_end = 0;
    }
    if (zs->avail_in == 0 && in->raw_eof)
      return hfg_err_set(err, HFG_ECORRUPT, "%s: gzip stream is truncated", in->name);
    int zr = inflate(zs, Z_NO_FLUSH);
    if (zr == Z_STREAM_END) {
      in->member_end = 1;
    } else if (zr == Z_BUF_ERROR) {
      continue; /* needs more input: the top of the loop reads it or reports truncation */
    } else if (zr == Z_MEM_ERROR) {
      return hfg_err_set(err, HFG_ENOMEM, "%s: out of memory in gzip decoding", in->name);
    } else if (zr != Z_OK) {
      return hfg_err_set(err, HFG_ECORRUPT, "%s: bad gzip data: %s", in->name,
                         zs->msg ? zs->msg : "inflate failed");
    }
  }
  *got = n - zs->avail_out;
  return 0;
}

int hfg_rin_read(hfg_rin *in, char *dst, size_t n, size_t *got, hfg_err *err) {
  *got = 0;
  if (in->is_gz) return read_gz(in, dst, n, got, err);
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
  if (in->zs_ready) inflateEnd(&in->zs);
  in->zs_ready = 0;
  hfg_free(in->zbuf);
  in->zbuf = NULL;
  if (in->owns_fd && in->fd >= 0) close(in->fd);
  in->fd = -1;
  in->owns_fd = 0;
}
