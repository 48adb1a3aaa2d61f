/*
 * KeyValue keys and cells as the reader sees them (format-specs/reader-checks.md,
 * "Cells"): the key layout of hbase-common KeyValue.java, the cell layout read
 * by HFileReaderImpl.HFileScannerImpl.readKeyValueLen / readMvccVersion, and the
 * order of CellComparatorImpl.compare. Independent of src/format/kv.c on
 * purpose: the reader is the writer's judge.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "read/rd.h"
#include "util/coding.h"

int rd_key_parse(const uint8_t *k, size_t n, rd_key *out, const char **why) {
  const char *dummy;
  if (!why) why = &dummy;
  /* rowLength(2) + familyLength(1) + timestamp(8) + type(1) */
  if (n < 12) {
    *why = "key shorter than 12 bytes";
    return -1;
  }
  size_t row_len = hfg_get_be16(k);
  /* HBase reads rowLength as a signed short. */
  if (row_len > 32767) {
    *why = "row length above 32767";
    return -1;
  }
  if (2 + row_len + 1 + 9 > n) {
    *why = "row length runs past the key";
    return -1;
  }
  size_t fam_len = k[2 + row_len];
  /* ... and familyLength as a signed byte. */
  if (fam_len > 127) {
    *why = "family length above 127";
    return -1;
  }
  if (2 + row_len + 1 + fam_len + 9 > n) {
    *why = "family length runs past the key";
    return -1;
  }
  out->row = k + 2;
  out->row_len = row_len;
  out->fam = k + 3 + row_len;
  out->fam_len = fam_len;
  out->qual = out->fam + fam_len;
  out->qual_len = n - 12 - row_len - fam_len;
  out->ts = (int64_t)hfg_get_be64(k + n - 9);
  out->type = k[n - 1];
  return 0;
}

int rd_bytes_cmp(const uint8_t *a, size_t an, const uint8_t *b, size_t bn) {
  size_t m = an < bn ? an : bn;
  int c = m ? memcmp(a, b, m) : 0;
  if (c) return c < 0 ? -1 : 1;
  return an < bn ? -1 : an > bn ? 1 : 0;
}

/* CellComparatorImpl.compare without mvcc: rows; the "last on row" special
 * case (empty family and qualifier with type Minimum sorts after every other
 * key of the row); family; qualifier; timestamp descending; type descending. */
int rd_key_cmp(const rd_key *a, const rd_key *b) {
  int c = rd_bytes_cmp(a->row, a->row_len, b->row, b->row_len);
  if (c) return c;
  if (a->fam_len + a->qual_len == 0 && a->type == 0) return 1;
  if (b->fam_len + b->qual_len == 0 && b->type == 0) return -1;
  c = rd_bytes_cmp(a->fam, a->fam_len, b->fam, b->fam_len);
  if (c) return c;
  c = rd_bytes_cmp(a->qual, a->qual_len, b->qual, b->qual_len);
  if (c) return c;
  if (a->ts != b->ts) return a->ts > b->ts ? -1 : 1;
  if (a->type != b->type) return a->type > b->type ? -1 : 1;
  return 0;
}

int rd_compare_keys(hfg_comparator_kind kind, const uint8_t *a, size_t an, const uint8_t *b,
                    size_t bn) {
  if (kind == HFG_CMP_RAW) return rd_bytes_cmp(a, an, b, bn);
  rd_key ka, kb;
  int va = rd_key_parse(a, an, &ka, NULL) == 0;
  int vb = rd_key_parse(b, bn, &kb, NULL) == 0;
  if (va && vb) return rd_key_cmp(&ka, &kb);
  if (va != vb) return va ? -1 : 1;
  return rd_bytes_cmp(a, an, b, bn);
}

int hfg_parse_key(const uint8_t *key, size_t len, hfg_cell *out) {
  rd_key k;
  if (!key || rd_key_parse(key, len, &k, NULL)) return HFG_ECORRUPT;
  memset(out, 0, sizeof *out);
  out->row = k.row;
  out->row_len = k.row_len;
  out->family = k.fam;
  out->family_len = k.fam_len;
  out->qualifier = k.qual;
  out->qualifier_len = k.qual_len;
  out->timestamp = k.ts;
  out->type = k.type;
  return 0;
}

const char *hfg_read_type_name(uint8_t type) {
  switch (type) {
    case 0: return "Minimum";
    case 4: return "Put";
    case 8: return "Delete";
    case 10: return "DeleteFamilyVersion";
    case 12: return "DeleteColumn";
    case 14: return "DeleteFamily";
    case 255: return "Maximum";
    default: return NULL;
  }
}

/* Appends the escaped bytes (util/escape.h rules) while room remains; returns
 * 0 when everything fit. */
static int put_escaped(char *out, size_t cap, size_t *at, const uint8_t *p, size_t n) {
  static const char hex[] = "0123456789abcdef";
  for (size_t i = 0; i < n; i++) {
    char tmp[4];
    size_t k;
    uint8_t c = p[i];
    if (c == '\\') {
      tmp[0] = tmp[1] = '\\';
      k = 2;
    } else if (c >= 0x20 && c <= 0x7e) {
      tmp[0] = (char)c;
      k = 1;
    } else {
      tmp[0] = '\\';
      tmp[1] = 'x';
      tmp[2] = hex[c >> 4];
      tmp[3] = hex[c & 15];
      k = 4;
    }
    if (*at + k + 1 > cap) return -1;
    memcpy(out + *at, tmp, k);
    *at += k;
  }
  return 0;
}

static int put_str(char *out, size_t cap, size_t *at, const char *s) {
  size_t k = strlen(s);
  if (*at + k + 1 > cap) return -1;
  memcpy(out + *at, s, k);
  *at += k;
  return 0;
}

size_t hfg_format_key(const uint8_t *key, size_t len, char *out, size_t cap) {
  if (cap == 0) return 0;
  size_t at = 0;
  int full = 0;
  rd_key k;
  if (!key || rd_key_parse(key, len, &k, NULL)) {
    static const char hex[] = "0123456789abcdef";
    full |= put_str(out, cap, &at, "<malformed key: ");
    for (size_t i = 0; i < len && !full; i++) {
      char two[3] = {hex[key[i] >> 4], hex[key[i] & 15], 0};
      full |= put_str(out, cap, &at, two);
    }
    if (!full) full |= put_str(out, cap, &at, ">");
  } else {
    char num[32];
    const char *tn = hfg_read_type_name(k.type);
    char tbuf[8];
    if (!tn) {
      snprintf(tbuf, sizeof tbuf, "%u", k.type);
      tn = tbuf;
    }
    snprintf(num, sizeof num, "/%" PRId64 "/", k.ts);
    full |= put_escaped(out, cap, &at, k.row, k.row_len);
    if (!full) full |= put_str(out, cap, &at, "/");
    if (!full) full |= put_escaped(out, cap, &at, k.fam, k.fam_len);
    if (!full) full |= put_str(out, cap, &at, ":");
    if (!full) full |= put_escaped(out, cap, &at, k.qual, k.qual_len);
    if (!full) full |= put_str(out, cap, &at, num);
    if (!full) full |= put_str(out, cap, &at, tn);
  }
  if (full) {
    /* Mark the cut; keep room for "..." when the buffer allows it. */
    if (cap >= 4) {
      if (at > cap - 4) at = cap - 4;
      memcpy(out + at, "...", 3);
      at += 3;
    } else {
      at = cap - 1;
    }
  }
  out[at] = '\0';
  return at;
}

int hfg_decode_timerange(const uint8_t *v, size_t n, int64_t *min_ts, int64_t *max_ts) {
  if (!v) return HFG_ECORRUPT;
  if (n == 16) {
    *min_ts = (int64_t)hfg_get_be64(v);
    *max_ts = (int64_t)hfg_get_be64(v + 8);
    return 0;
  }
  /* HBase 2.0.0-2.0.1 wrote "PBUF" + TimeRangeTracker (HBASE-21012 went back);
   * TimeRangeTracker.parseFrom still accepts it: int64 from = 1, to = 2. */
  if (n < 4 || memcmp(v, "PBUF", 4) != 0) return HFG_ECORRUPT;
  const uint8_t *p = v + 4, *end = v + n;
  int64_t from = 0, to = INT64_MAX;
  while (p < end) {
    uint64_t tag, val;
    size_t k = hfg_get_varint(p, end, &tag);
    if (!k) return HFG_ECORRUPT;
    p += k;
    if ((tag & 7) != 0) return HFG_ECORRUPT;
    k = hfg_get_varint(p, end, &val);
    if (!k) return HFG_ECORRUPT;
    p += k;
    if (tag >> 3 == 1) from = (int64_t)val;
    else if (tag >> 3 == 2) to = (int64_t)val;
  }
  *min_ts = from;
  *max_ts = to;
  return 0;
}

int rd_cell_parse(const uint8_t *p, size_t n, size_t pos, const rd_cell_flags *f,
                  hfg_read_cell *c, size_t *next, hfg_err *err) {
  if (pos > n || n - pos < 8)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "cell at payload offset %zu: %zu bytes left, need 8 for the lengths", pos,
                       pos > n ? (size_t)0 : n - pos);
  /* HBase reads both lengths as signed ints: keyLength must be > 0, valueLength >= 0. */
  int32_t klen = (int32_t)hfg_get_be32(p + pos);
  int32_t vlen = (int32_t)hfg_get_be32(p + pos + 4);
  size_t left = n - pos - 8;
  if (klen <= 0 || (size_t)klen > left)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "cell at payload offset %zu: key length %" PRId32
                       " out of range (%zu payload bytes left)",
                       pos, klen, left);
  if (vlen < 0 || (size_t)vlen > left - (size_t)klen)
    return hfg_err_set(err, HFG_ECORRUPT,
                       "cell at payload offset %zu: value length %" PRId32
                       " out of range (%zu payload bytes left after the key)",
                       pos, vlen, left - (size_t)klen);
  const uint8_t *key = p + pos + 8;
  rd_key k;
  const char *why = "";
  if (rd_key_parse(key, (size_t)klen, &k, &why))
    return hfg_err_set(err, HFG_ECORRUPT, "cell at payload offset %zu: malformed key (%s)", pos,
                       why);
  size_t at = pos + 8 + (size_t)klen + (size_t)vlen;
  const uint8_t *tags = NULL;
  size_t tags_len = 0;
  if (f->tags) {
    if (n - at < 2)
      return hfg_err_set(err, HFG_ECORRUPT,
                         "cell at payload offset %zu: tags length runs past the block", pos);
    tags_len = hfg_get_be16(p + at);
    /* read as a signed short by HBase: above 32767 it is negative and rejected */
    if (tags_len > 32767 || tags_len > n - at - 2)
      return hfg_err_set(err, HFG_ECORRUPT,
                         "cell at payload offset %zu: tags length %zu out of range", pos,
                         tags_len);
    tags = p + at + 2;
    at += 2 + tags_len;
  }
  int64_t mvcc = 0;
  if (f->mvcc) {
    if (!f->decode_mvcc) {
      /* MAX_MEMSTORE_TS_KEY == 0: HBase skips exactly one byte (HFileInfo
       * decodeMemstoreTS false → currMemstoreTSLen = 1). */
      if (at >= n)
        return hfg_err_set(err, HFG_ECORRUPT,
                           "cell at payload offset %zu: mvcc byte runs past the block", pos);
      at += 1; /* the byte itself is checked by verify */
    } else {
      size_t m = hfg_get_vlong(p + at, p + n, &mvcc);
      if (!m)
        return hfg_err_set(err, HFG_ECORRUPT,
                           "cell at payload offset %zu: mvcc vlong runs past the block", pos);
      at += m;
    }
  }
  memset(c, 0, sizeof *c);
  c->cell.row = k.row;
  c->cell.row_len = k.row_len;
  c->cell.family = k.fam;
  c->cell.family_len = k.fam_len;
  c->cell.qualifier = k.qual;
  c->cell.qualifier_len = k.qual_len;
  c->cell.timestamp = k.ts;
  c->cell.type = k.type;
  c->cell.value = key + klen;
  c->cell.value_len = (size_t)vlen;
  c->cell.tags = tags;
  c->cell.tags_len = tags_len;
  c->key = key;
  c->key_len = (size_t)klen;
  c->mvcc = mvcc;
  *next = at;
  return 0;
}
