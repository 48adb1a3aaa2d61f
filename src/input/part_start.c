/*
 * Where a part of a CSV/TSV file starts (parallel ingest, build_ingest_par.c):
 * a guess from the bytes at lo alone, checked later against where the part
 * before it truly ended. Two hypotheses run side by side over the window —
 * lo - 1 outside quotes, or inside a quoted field — and the first line end
 * the surviving one reaches is the guess; TSV and the other formats have no
 * quotes: the first line end.
 */
#include "input/part_start.h"

#include <string.h>
#include <sys/types.h>
#include <unistd.h>

enum { S_FIELD, S_UNQ, S_QUOTED, S_QQ, S_CR, S_DEAD };

/* One CSV byte under one hypothesis; *boundary when a record ends at c. */
static int csv_step(int st, unsigned char c, unsigned char delim, int *boundary) {
  *boundary = 0;
  switch (st) {
  case S_FIELD:
    if (c == '"') return S_QUOTED;
    if (c == '\n') *boundary = 1;
    return c == delim || c == '\n' ? S_FIELD : S_UNQ;
  case S_UNQ:
    if (c == '\n') *boundary = 1;
    if (c == delim || c == '\n') return S_FIELD;
    return c == '"' ? S_DEAD : S_UNQ; /* a quote inside an unquoted field */
  case S_QUOTED:
    return c == '"' ? S_QQ : S_QUOTED;
  case S_QQ:
    if (c == '"') return S_QUOTED;
    if (c == '\n') *boundary = 1;
    if (c == delim || c == '\n') return S_FIELD;
    return c == '\r' ? S_CR : S_DEAD; /* only a delimiter or a line end after a closing quote */
  case S_CR:
    if (c == '\n') *boundary = 1;
    return c == '\n' ? S_FIELD : S_DEAD;
  default:
    return S_DEAD;
  }
}

uint64_t hfg_part_guess_start(int fd, uint64_t lo, int csv, unsigned char delim, uint8_t *win) {
  ssize_t n = pread(fd, win, HFG_PART_GUESS_WINDOW, (off_t)(lo - 1));
  if (n <= 0) return UINT64_MAX;
  const uint8_t *nl = memchr(win, '\n', (size_t)n);
  if (!csv) return nl ? lo + (uint64_t)(nl - win) : UINT64_MAX;
  /* hypothesis 0: outside quotes at lo - 1; 1: inside a quoted field */
  int st[2] = {S_FIELD, S_QUOTED};
  ssize_t at[2] = {-1, -1};
  for (ssize_t i = 0; i < n; i++) {
    for (int h = 0; h < 2; h++) {
      if (st[h] == S_DEAD) continue;
      int b;
      st[h] = csv_step(st[h], win[i], delim, &b);
      if (b && at[h] < 0) at[h] = i;
    }
    if ((st[0] == S_DEAD && at[1] >= 0) || (st[1] == S_DEAD && at[0] >= 0)) break;
  }
  int h = st[0] != S_DEAD ? 0 : st[1] != S_DEAD ? 1 : -1; /* both alive: no quotes, outside */
  if (h >= 0 && at[h] >= 0) return lo + (uint64_t)at[h];
  return nl ? lo + (uint64_t)(nl - win) : UINT64_MAX;
}
