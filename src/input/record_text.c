/*
 * Record reader: what the first bytes of an input say about its text
 * encoding (record_reader.h, "Text encoding"). Runs once per input, before
 * its first line is parsed.
 */
#include <stdio.h>
#include <string.h>

#include "input/record_reader_int.h"

/* UTF-16 and UTF-32 inputs (by their byte order mark, or ASCII interleaved
 * with NULs: UTF-16 without one) would split into garbage fields: refuse them
 * with the conversion to run. Called with the input's first bytes at pos. */
int hfg_rr_check_encoding(hfg_record_reader *r) {
  const unsigned char *p = (const unsigned char *)r->buf + r->pos;
  size_t n = r->end - r->pos;
  const char *enc = NULL, *from = NULL;
  int ascii[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < 4 && i < n; i++) ascii[i] = (p[i] >= 0x20 && p[i] < 0x7f) || p[i] == '\t';
  if (n >= 4 && !memcmp(p, "\xff\xfe\0\0", 4)) enc = "UTF-32LE (byte order mark ff fe 00 00)", from = "UTF-32";
  else if (n >= 4 && !memcmp(p, "\0\0\xfe\xff", 4)) enc = "UTF-32BE (byte order mark 00 00 fe ff)", from = "UTF-32";
  else if (n >= 2 && !memcmp(p, "\xff\xfe", 2)) enc = "UTF-16LE (byte order mark ff fe)", from = "UTF-16";
  else if (n >= 2 && !memcmp(p, "\xfe\xff", 2)) enc = "UTF-16BE (byte order mark fe ff)", from = "UTF-16";
  else if (n >= 4 && ascii[0] && !p[1] && ascii[2] && !p[3]) enc = "UTF-16LE (no byte order mark)", from = "UTF-16LE";
  else if (n >= 4 && !p[0] && ascii[1] && !p[2] && ascii[3]) enc = "UTF-16BE (no byte order mark)", from = "UTF-16BE";
  if (!enc) return 0;
  return hfg_err_set(&r->err, HFG_EUNSUPPORTED,
                     "%s: the input is %s; hfilegen reads UTF-8 text: convert it first, e.g. "
                     "iconv -f %s -t UTF-8 FILE > FILE.utf8",
                     r->name, enc, from);
}

/* Control bytes: not text in UTF-8 or Latin-1 (TAB, LF, CR are). */
static int is_control(unsigned char c) {
  return (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f;
}

int hfg_rr_binary_evidence(const hfg_record_reader *r, const char *at, uint64_t line, char *why,
                           size_t cap) {
  const unsigned char *p = (const unsigned char *)at;
  const size_t avail = (size_t)(r->buf + r->end - at);
  const size_t n = avail < HFG_RR_SNIFF ? avail : HFG_RR_SNIFF;
  const uint64_t off = r->buf_off + (uint64_t)(at - r->buf);
  const unsigned char *nul = memchr(p, 0, n);
  if (nul) {
    for (const unsigned char *q = p; (q = memchr(q, '\n', (size_t)(nul - q))) != NULL; q++) line++;
    snprintf(why, cap, "a NUL byte at byte %llu, line %llu", (unsigned long long)(off + (uint64_t)(nul - p)),
             (unsigned long long)line);
    return 1;
  }
  size_t ctl = 0;
  for (size_t i = 0; i < n; i++) ctl += is_control(p[i]);
  if (ctl < 4 || ctl * 10 < n) return 0; /* a few escapes (ANSI colours, form feeds) are text */
  snprintf(why, cap, "%zu control bytes in the %zu from byte %llu, line %llu", ctl, n,
           (unsigned long long)off, (unsigned long long)line);
  return 1;
}
