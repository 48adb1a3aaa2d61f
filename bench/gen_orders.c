/*
 * gen_orders: a deterministic export of a legacy `orders` table, fast enough
 * for gigabytes (tools/make_sample.py writes the same kind of table, but at
 * a few MB/s).
 *
 *   gen_orders --size 1G [--seed N] --csv FILE [--tsv FILE]
 *
 * Columns: id (auto-increment from 1), user_id (skewed: five heavy users carry
 * 20% of the orders, a thousand regulars 30%, the rest spread over 5 M users),
 * created_at (epoch ms, increasing), amount (decimal), status, note (free text
 * with commas, double quotes and UTF-8; empty for about 1 order in 8).
 * About 150 bytes a row as CSV.
 *
 * --csv writes RFC 4180 CSV with a header (the note is quoted when it holds a
 * comma or a quote). --tsv writes the same rows pre-transformed for HBase's
 * ImportTsv: no header, the first column is the rowkey `{id % 10}|{id}`, then
 * user_id, created_at, amount, status, note, tab-separated. Notes never hold a
 * tab or a newline, so the TSV needs no quoting and both files carry the same
 * cell values byte for byte.
 *
 * Generation stops after the row that takes the CSV to --size bytes (or after
 * --rows rows), so a smaller --size with the same seed gives a prefix of a
 * larger file. On stdout: rows, csv_bytes, tsv_bytes, cells (non-empty
 * values: the cells a loader that skips empty fields writes) as key=value.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: tiny, fast and fully determined by the seed */
static uint64_t rng_state;
static uint64_t rnd(void) {
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
/* uniform in [0, n) (the bias of a 64-bit modulo is irrelevant here) */
static uint64_t below(uint64_t n) { return rnd() % n; }

static const char *const STATUS[] = {"NEW", "PAID", "PAID", "SHIPPED", "SHIPPED",
                                     "DELIVERED", "DELIVERED", "DELIVERED", "CANCELLED",
                                     "RETURNED"};
static const char *const WORDS[] = {
    "please", "leave", "at", "the", "door", "gift", "wrap", "customer", "called", "about",
    "delivery", "before", "noon", "ring", "twice", "fragile", "handle", "with", "care",
    "ref", "PO-1234", "PO-5678", "invoice", "to", "office", "back", "entrance", "parcel",
    "locker", "neighbour", "floor", "3", "apartment", "12B", "no", "signature", "needed",
    "express", "shipping", "weekend", "evening", "only", "contact", "by", "phone", "email",
    "Zustellung", "an", "Nachbarn", "Müller", "señal", "código", "配送前に電話", "ください",
    "café", "crème", "naïve", "coupon", "SPRING24", "applied", "replacement", "for", "order",
    "damaged", "box", "return", "label", "included", "urgent", "asap", "thanks", "ok"};
#define NWORDS (sizeof WORDS / sizeof WORDS[0])

static uint64_t parse_size(const char *s) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || v < 0) return 0;
  switch (*end) {
    case 'k': case 'K': v *= 1024; end++; break;
    case 'm': case 'M': v *= 1024 * 1024; end++; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; end++; break;
    default: break;
  }
  if (*end == 'b' || *end == 'B') end++;
  return *end ? 0 : (uint64_t)v;
}

static char *put_u64(char *p, uint64_t v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *p++ = tmp[--n];
  return p;
}

static char *put_str(char *p, const char *s) {
  size_t n = strlen(s);
  memcpy(p, s, n);
  return p + n;
}

/* One note into buf (no tab, no newline); returns its length. */
static size_t make_note(char *buf) {
  if (below(8) == 0) return 0;
  char *p = buf;
  unsigned words = 8 + (unsigned)below(17); /* 8..24 words, 16 on average */
  for (unsigned w = 0; w < words; w++) {
    if (w) *p++ = ' ';
    uint64_t r = below(100);
    if (r < 4) { /* a quoted phrase: forces CSV quoting with doubled quotes */
      *p++ = '"';
      p = put_str(p, WORDS[below(NWORDS)]);
      *p++ = '"';
    } else {
      p = put_str(p, WORDS[below(NWORDS)]);
    }
    if (r >= 90 && w + 1 < words) *p++ = ',';
  }
  return (size_t)(p - buf);
}

typedef struct out {
  FILE *f;
  char *buf;
  size_t len, cap;
  uint64_t bytes;
} out;

static int out_flush(out *o) {
  if (o->len && fwrite(o->buf, 1, o->len, o->f) != o->len) return -1;
  o->bytes += o->len;
  o->len = 0;
  return 0;
}

static int out_open(out *o, const char *path) {
  memset(o, 0, sizeof *o);
  if (!path) return 0;
  o->f = fopen(path, "wb");
  if (!o->f) {
    fprintf(stderr, "gen_orders: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  o->cap = 4 << 20;
  o->buf = malloc(o->cap);
  if (!o->buf) return -1;
  return 0;
}

static int out_close(out *o) {
  if (!o->f) return 0;
  int rc = out_flush(o);
  if (fclose(o->f)) rc = -1;
  free(o->buf);
  return rc;
}

int main(int argc, char **argv) {
  uint64_t size = 0, max_rows = 0, seed = 20240711;
  const char *csv_path = NULL, *tsv_path = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--size") && v) size = parse_size(v), i++;
    else if (!strcmp(a, "--rows") && v) max_rows = strtoull(v, NULL, 10), i++;
    else if (!strcmp(a, "--seed") && v) seed = strtoull(v, NULL, 10), i++;
    else if (!strcmp(a, "--csv") && v) csv_path = v, i++;
    else if (!strcmp(a, "--tsv") && v) tsv_path = v, i++;
    else {
      fprintf(stderr, "usage: gen_orders (--size 1G | --rows N) [--seed N] --csv FILE [--tsv FILE]\n");
      return 2;
    }
  }
  if ((!size && !max_rows) || (!csv_path && !tsv_path)) {
    fprintf(stderr, "gen_orders: needs --size or --rows, and --csv or --tsv\n");
    return 2;
  }
  rng_state = seed;
  uint64_t heavy[5], regular[1000];
  for (int i = 0; i < 5; i++) heavy[i] = 1 + below(5000000);
  for (int i = 0; i < 1000; i++) regular[i] = 1 + below(5000000);

  out csv, tsv;
  if (out_open(&csv, csv_path) || out_open(&tsv, tsv_path)) return 1;
  static const char header[] = "id,user_id,created_at,amount,status,note\n";
  uint64_t csv_bytes = 0, rows = 0, cells = 0;
  if (csv.f) {
    memcpy(csv.buf, header, sizeof header - 1);
    csv.len = sizeof header - 1;
  }
  csv_bytes = sizeof header - 1;
  uint64_t ts = 1720000000000ull;
  char note[1024], line[2048];
  for (uint64_t id = 1;; id++) {
    if (max_rows && rows >= max_rows) break;
    if (!max_rows && csv_bytes >= size) break;
    uint64_t r = below(100), user;
    if (r < 20) user = heavy[below(5)];
    else if (r < 50) user = regular[below(1000)];
    else user = 1 + below(5000000);
    ts += 1 + below(2000);
    uint64_t cents = 100 + below(199900);
    const char *status = STATUS[below(sizeof STATUS / sizeof STATUS[0])];
    size_t nlen = make_note(note);
    int quote = memchr(note, ',', nlen) || memchr(note, '"', nlen);

    /* the shared fields: user_id,created_at,amount,status */
    char *p = line;
    p = put_u64(p, user);
    *p++ = '\t';
    p = put_u64(p, ts);
    *p++ = '\t';
    p = put_u64(p, cents / 100);
    *p++ = '.';
    *p++ = (char)('0' + cents / 10 % 10);
    *p++ = (char)('0' + cents % 10);
    *p++ = '\t';
    p = put_str(p, status);
    *p++ = '\t';
    size_t mid = (size_t)(p - line);

    if (csv.f) {
      if (csv.cap - csv.len < 4096 && out_flush(&csv)) goto io_fail;
      char *q = csv.buf + csv.len;
      q = put_u64(q, id);
      *q++ = ',';
      for (size_t k = 0; k < mid; k++) q[k] = line[k] == '\t' ? ',' : line[k];
      q += mid;
      if (quote) {
        *q++ = '"';
        for (size_t k = 0; k < nlen; k++) {
          if (note[k] == '"') *q++ = '"';
          *q++ = note[k];
        }
        *q++ = '"';
      } else {
        memcpy(q, note, nlen);
        q += nlen;
      }
      *q++ = '\n';
      csv_bytes += (uint64_t)(q - (csv.buf + csv.len));
      csv.len = (size_t)(q - csv.buf);
    } else {
      /* the CSV length still decides where generation stops */
      char idtmp[24];
      size_t qn = 0;
      for (size_t k = 0; k < nlen; k++) qn += note[k] == '"';
      csv_bytes += (uint64_t)(put_u64(idtmp, id) - idtmp) + 1 + mid + nlen + 1 +
                   (quote ? 2 + qn : 0);
    }
    if (tsv.f) {
      if (tsv.cap - tsv.len < 4096 && out_flush(&tsv)) goto io_fail;
      char *q = tsv.buf + tsv.len;
      q = put_u64(q, id % 10);
      *q++ = '|';
      q = put_u64(q, id);
      *q++ = '\t';
      memcpy(q, line, mid);
      q += mid;
      memcpy(q, note, nlen);
      q += nlen;
      *q++ = '\n';
      tsv.len = (size_t)(q - tsv.buf);
    }
    rows++;
    cells += 4 + (nlen > 0);
  }
  if (out_close(&csv) || out_close(&tsv)) goto io_fail;
  printf("rows=%llu\ncsv_bytes=%llu\ntsv_bytes=%llu\ncells=%llu\nseed=%llu\n",
         (unsigned long long)rows, (unsigned long long)csv_bytes,
         (unsigned long long)tsv.bytes, (unsigned long long)cells, (unsigned long long)seed);
  return 0;
io_fail:
  fprintf(stderr, "gen_orders: write failed: %s\n", strerror(errno));
  return 1;
}
