/* The partitioner (hfg_splits_region, src/build/splits.c) against the
 * definition, counted by hand: the number of split keys <= the row
 * (Bytes.compareTo order). Its shortcut by the row's first byte and the
 * binary search among the keys sharing it must agree with that for split
 * sets of one-byte keys (salt), keys sharing first bytes and 8-byte prefixes,
 * 0x00 and 0xff bytes, and rows equal to a split key, one byte either side of
 * it (the last byte dropped, added, raised, lowered), empty and random. */
#include "build/splits.h"
#include "t.h"
#include "util/coding.h"

static size_t region_by_hand(const hfg_splits *s, const uint8_t *row, size_t len) {
  size_t r = 0;
  for (size_t i = 0; i < s->n; i++) {
    size_t m = s->len[i] < len ? s->len[i] : len;
    int c = memcmp(s->key[i], row, m);
    if (c < 0 || (c == 0 && s->len[i] <= len)) r++;
  }
  return r;
}

static uint32_t rnd_state = 12345;
static uint32_t rnd(void) {
  rnd_state = rnd_state * 1103515245u + 12345u;
  return rnd_state >> 8;
}

/* A byte from a small alphabet so keys share first bytes and prefixes. */
static uint8_t rnd_byte(void) {
  static const uint8_t alpha[] = {0x00, 0x01, '0', '1', '2', '|', 'a', 0x7f, 0x80, 0xfe, 0xff};
  return rnd() % 4 == 0 ? (uint8_t)rnd() : alpha[rnd() % sizeof alpha];
}

static int check_row(const hfg_splits *s, const uint8_t *row, size_t len) {
  size_t got = hfg_splits_region(s, row, len), want = region_by_hand(s, row, len);
  if (got == want) return 1;
  fprintf(stderr, "  row of %zu bytes (first %02x): region %zu, want %zu\n", len,
          len ? row[0] : 0, got, want);
  t_failed_now = 1;
  return 0;
}

/* Every row near every split key, and random ones. */
static void check_all(const hfg_splits *s) {
  uint8_t row[40] = {0};
  if (!check_row(s, row, 0)) return;
  for (size_t i = 0; i < s->n; i++) {
    size_t l = s->len[i];
    memcpy(row, s->key[i], l);
    if (!check_row(s, row, l) || !check_row(s, row, l - 1)) return;
    for (int b = 0; b < 256; b += 51) {
      row[l] = (uint8_t)b;
      if (!check_row(s, row, l + 1)) return;
    }
    if (row[l - 1] < 0xff) {
      row[l - 1]++;
      if (!check_row(s, row, l)) return;
      row[l - 1]--;
    }
    if (row[l - 1] > 0) {
      row[l - 1]--;
      if (!check_row(s, row, l)) return;
      row[l - 1]++;
    }
  }
  for (int k = 0; k < 2000; k++) {
    size_t l = rnd() % 20;
    for (size_t i = 0; i < l; i++) row[i] = rnd_byte();
    if (!check_row(s, row, l)) return;
  }
  for (int b = 0; b < 256; b++) { /* every first byte, alone and followed by more */
    row[0] = (uint8_t)b;
    row[1] = 'x';
    if (!check_row(s, row, 1) || !check_row(s, row, 2)) return;
  }
}

static int cmp_keys(const void *a, const void *b) {
  const uint8_t *const *x = a, *const *y = b;
  return hfg_bytes_cmp(x[0] + 1, x[0][0], y[0] + 1, y[0][0]);
}

TEST(region_matches_the_count_of_keys_at_or_below) {
  hfg_splits s = {0};
  check_all(&s); /* no keys: one region */
  static const char *salt[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9"};
  for (size_t i = 0; i < 9; i++) REQUIRE(hfg_splits_add(&s, (const uint8_t *)salt[i], 1) == 0);
  check_all(&s);
  hfg_splits_free(&s);
  static const char *mixed[] = {"1", "1|5", "1|50000000", "1|500000000", "1|5000000000a",
                                "2|", "3", "a", "aaaaaaaab", "aaaaaaaabb", "ab"};
  for (size_t i = 0; i < sizeof mixed / sizeof *mixed; i++)
    REQUIRE(hfg_splits_add(&s, (const uint8_t *)mixed[i], strlen(mixed[i])) == 0);
  check_all(&s);
  hfg_splits_free(&s);
  /* random sets: keys of 1..24 bytes, [0] holding the length */
  for (int set = 0; set < 300; set++) {
    uint8_t *keys[64], store[64][26];
    size_t n = 1 + rnd() % 64;
    for (size_t i = 0; i < n; i++) {
      store[i][0] = (uint8_t)(1 + (set % 3 == 0 ? 0 : rnd() % 24));
      for (size_t b = 0; b < store[i][0]; b++) store[i][1 + b] = rnd_byte();
      keys[i] = store[i];
    }
    qsort(keys, n, sizeof *keys, cmp_keys);
    for (size_t i = 0; i < n; i++) {
      if (i && !cmp_keys(&keys[i - 1], &keys[i])) continue; /* a repeat */
      REQUIRE(hfg_splits_add(&s, keys[i] + 1, keys[i][0]) == 0);
    }
    check_all(&s);
    if (t_failed_now) {
      fprintf(stderr, "  set %d of %zu keys\n", set, s.n);
      hfg_splits_free(&s);
      return;
    }
    hfg_splits_free(&s);
  }
}

/* A key out of order or empty is refused and leaves the set as it was. */
TEST(refused_key_leaves_the_regions) {
  hfg_splits s = {0};
  REQUIRE(hfg_splits_add(&s, (const uint8_t *)"b", 1) == 0);
  CHECK(hfg_splits_add(&s, (const uint8_t *)"a", 1) == HFG_EINVAL);
  CHECK(hfg_splits_add(&s, (const uint8_t *)"b", 1) == HFG_EINVAL);
  CHECK(hfg_splits_add(&s, (const uint8_t *)"", 0) == HFG_EINVAL);
  REQUIRE(hfg_splits_add(&s, (const uint8_t *)"bb", 2) == 0);
  check_all(&s);
  CHECK(hfg_splits_region(&s, (const uint8_t *)"a", 1) == 0);
  CHECK(hfg_splits_region(&s, (const uint8_t *)"b", 1) == 1);
  CHECK(hfg_splits_region(&s, (const uint8_t *)"ba", 2) == 1);
  CHECK(hfg_splits_region(&s, (const uint8_t *)"bb", 2) == 2);
  CHECK(hfg_splits_region(&s, (const uint8_t *)"c", 1) == 2);
  hfg_splits_free(&s);
}

T_MAIN
