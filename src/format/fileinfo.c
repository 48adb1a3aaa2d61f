/* File info block: format-specs/fileinfo.md. */
#include "format/fileinfo.h"

#include <stdlib.h>

#include "hfile.pb-c.h"
#include "util/alloc.h"
#include "util/coding.h"

int hfg_fileinfo_put(hfg_fileinfo *fi, const char *key, const void *value, size_t len) {
  size_t kl = strlen(key);
  uint8_t *v = hfg_malloc(len ? len : 1);
  if (!v) return HFG_ENOMEM;
  if (len) memcpy(v, value, len);
  for (size_t i = 0; i < fi->n; i++) {
    if (fi->e[i].key_len == kl && !memcmp(fi->e[i].key, key, kl)) {
      hfg_free(fi->e[i].value);
      fi->e[i].value = v;
      fi->e[i].value_len = len;
      return 0;
    }
  }
  if (fi->n == fi->cap) {
    size_t cap = fi->cap ? fi->cap * 2 : 24;
    hfg_fileinfo_entry *e = hfg_realloc(fi->e, cap * sizeof *e);
    if (!e) {
      hfg_free(v);
      return HFG_ENOMEM;
    }
    fi->e = e;
    fi->cap = cap;
  }
  uint8_t *k = hfg_memdup(key, kl);
  if (!k) {
    hfg_free(v);
    return HFG_ENOMEM;
  }
  fi->e[fi->n++] = (hfg_fileinfo_entry){k, kl, v, len};
  return 0;
}

int hfg_fileinfo_put_i32(hfg_fileinfo *fi, const char *key, int32_t v) {
  uint8_t b[4];
  hfg_put_be32(b, (uint32_t)v);
  return hfg_fileinfo_put(fi, key, b, 4);
}

int hfg_fileinfo_put_i64(hfg_fileinfo *fi, const char *key, int64_t v) {
  uint8_t b[8];
  hfg_put_be64(b, (uint64_t)v);
  return hfg_fileinfo_put(fi, key, b, 8);
}

int hfg_fileinfo_put_bool(hfg_fileinfo *fi, const char *key, int v) {
  uint8_t b = v ? 0xff : 0x00;
  return hfg_fileinfo_put(fi, key, &b, 1);
}

/* Bytes.BYTES_COMPARATOR: unsigned lexicographic, shorter prefix first. */
static int entry_cmp(const void *a, const void *b) {
  const hfg_fileinfo_entry *x = a, *y = b;
  size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
  int r = memcmp(x->key, y->key, n);
  if (r) return r;
  return x->key_len < y->key_len ? -1 : x->key_len > y->key_len;
}

int hfg_fileinfo_encode(hfg_fileinfo *fi, hfg_buf *out) {
  qsort(fi->e, fi->n, sizeof *fi->e, entry_cmp);
  Hbase__Pb__BytesBytesPair *pairs = hfg_calloc(fi->n ? fi->n : 1, sizeof *pairs);
  Hbase__Pb__BytesBytesPair **ptrs = hfg_calloc(fi->n ? fi->n : 1, sizeof *ptrs);
  if (!pairs || !ptrs) {
    hfg_free(pairs);
    hfg_free(ptrs);
    return HFG_ENOMEM;
  }
  for (size_t i = 0; i < fi->n; i++) {
    hbase__pb__bytes_bytes_pair__init(&pairs[i]);
    pairs[i].first.data = fi->e[i].key;
    pairs[i].first.len = fi->e[i].key_len;
    pairs[i].second.data = fi->e[i].value;
    pairs[i].second.len = fi->e[i].value_len;
    ptrs[i] = &pairs[i];
  }
  Hbase__Pb__FileInfoProto msg = HBASE__PB__FILE_INFO_PROTO__INIT;
  msg.n_map_entry = fi->n;
  msg.map_entry = ptrs;
  size_t len = hbase__pb__file_info_proto__get_packed_size(&msg);
  int rc = HFG_ENOMEM;
  if (!hfg_buf_append(out, "PBUF", 4) && !hfg_buf_put_varint(out, len) &&
      !hfg_buf_reserve(out, len)) {
    out->len += hbase__pb__file_info_proto__pack(&msg, out->p + out->len);
    rc = 0;
  }
  hfg_free(pairs);
  hfg_free(ptrs);
  return rc;
}

void hfg_fileinfo_free(hfg_fileinfo *fi) {
  for (size_t i = 0; i < fi->n; i++) {
    hfg_free(fi->e[i].key);
    hfg_free(fi->e[i].value);
  }
  hfg_free(fi->e);
  fi->e = NULL;
  fi->n = fi->cap = 0;
}
