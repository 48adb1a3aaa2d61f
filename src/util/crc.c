#include "util/crc.h"

#include <pthread.h>

#ifdef HFG_HAVE_ISAL
#include <isa-l/crc.h>
#endif

/* Reflected polynomials: CRC-32C 0x82F63B78, CRC-32 (IEEE) 0xEDB88320. */
static uint32_t tab_c[8][256];
static uint32_t tab_ieee[8][256];
static pthread_once_t tab_once = PTHREAD_ONCE_INIT;

static void make_tables(uint32_t t[8][256], uint32_t poly) {
  for (uint32_t i = 0; i < 256; i++) {
    uint32_t c = i;
    for (int k = 0; k < 8; k++) c = c & 1 ? (c >> 1) ^ poly : c >> 1;
    t[0][i] = c;
  }
  for (uint32_t i = 0; i < 256; i++)
    for (int s = 1; s < 8; s++) t[s][i] = (t[s - 1][i] >> 8) ^ t[0][t[s - 1][i] & 0xff];
}

/* x^(8 * 2^i) mod P, reflected (bit 31 is x^0), for hfg_crc32*_patch. */
static uint32_t pow_c[64], pow_ieee[64];

/* a(x) * b(x) mod P in the reflected representation. */
static uint32_t gf2_mul(uint32_t a, uint32_t b, uint32_t poly) {
  uint32_t p = 0;
  for (uint32_t m = 0x80000000u; m && a; m >>= 1) {
    if (a & m) {
      p ^= b;
      a ^= m;
    }
    b = b & 1 ? (b >> 1) ^ poly : b >> 1; /* b *= x */
  }
  return p;
}

static void make_powers(uint32_t pw[64], uint32_t poly) {
  pw[0] = 0x00800000u; /* x^8 */
  for (int i = 1; i < 64; i++) pw[i] = gf2_mul(pw[i - 1], pw[i - 1], poly);
}

static void init_tables(void) {
  make_tables(tab_c, 0x82F63B78u);
  make_tables(tab_ieee, 0xEDB88320u);
  make_powers(pow_c, 0x82F63B78u);
  make_powers(pow_ieee, 0xEDB88320u);
}

/* Slicing-by-8 over little-endian loads assembled bytewise (endian-neutral). */
static uint32_t crc_sw(uint32_t t[8][256], uint32_t crc, const uint8_t *p, size_t n) {
  crc = ~crc;
  while (n >= 8) {
    uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                         (uint32_t)p[3] << 24);
    crc = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^
          t[4][lo >> 24] ^ t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
    p += 8;
    n -= 8;
  }
  while (n--) crc = (crc >> 8) ^ t[0][(crc ^ *p++) & 0xff];
  return ~crc;
}

uint32_t hfg_crc32c_sw(uint32_t crc, const void *p, size_t n) {
  pthread_once(&tab_once, init_tables);
  return crc_sw(tab_c, crc, p, n);
}

uint32_t hfg_crc32_sw(uint32_t crc, const void *p, size_t n) {
  pthread_once(&tab_once, init_tables);
  return crc_sw(tab_ieee, crc, p, n);
}

/* x^(8 * tail) mod P is the product of the powers of tail's bits. A writer
 * patches every block's first chunk at the same place, so the tail repeats:
 * each thread keeps the last one's product (one multiplication a patch
 * instead of one a set bit). */
typedef struct { uint64_t tail; uint32_t mult; } patch_memo;
static _Thread_local patch_memo memo_c = {UINT64_MAX, 0}, memo_ieee = {UINT64_MAX, 0};

/* A CRC is affine in the message: for messages of one length, CRC(M ^ D) =
 * CRC(M) ^ R(D), R the register (zero start, no final xor) after D. Zero bytes
 * at the front of D leave a zero register as it is, and each byte after d
 * multiplies the register by x^8: R(D) = R(d) * x^(8 * tail) mod P. */
static uint32_t crc_patch(uint32_t t[8][256], const uint32_t pw[64], uint32_t poly,
                          patch_memo *memo, uint32_t crc, const uint8_t *d, size_t k,
                          uint64_t tail) {
  uint32_t r = ~crc_sw(t, 0xffffffffu, d, k); /* R(d): crc_sw inverts on entry and exit */
  if (!r || !tail) return crc ^ r;
  if (memo->tail != tail) {
    uint32_t m = 0x80000000u; /* x^0 */
    for (int i = 0; i < 64; i++)
      if (tail >> i & 1) m = gf2_mul(m, pw[i], poly);
    memo->tail = tail;
    memo->mult = m;
  }
  return crc ^ gf2_mul(r, memo->mult, poly);
}

uint32_t hfg_crc32c_patch(uint32_t crc, const uint8_t *d, size_t k, uint64_t tail) {
  pthread_once(&tab_once, init_tables);
  return crc_patch(tab_c, pow_c, 0x82F63B78u, &memo_c, crc, d, k, tail);
}

uint32_t hfg_crc32_patch(uint32_t crc, const uint8_t *d, size_t k, uint64_t tail) {
  pthread_once(&tab_once, init_tables);
  return crc_patch(tab_ieee, pow_ieee, 0xEDB88320u, &memo_ieee, crc, d, k, tail);
}

#ifdef HFG_HAVE_ISAL
/* ISA-L takes an int length; feed large inputs in pieces. */
#define ISAL_STEP ((size_t)1 << 30)

uint32_t hfg_crc32c(uint32_t crc, const void *p, size_t n) {
  const uint8_t *b = p;
  uint32_t c = ~crc;
  while (n) {
    size_t k = n < ISAL_STEP ? n : ISAL_STEP;
    c = crc32_iscsi((unsigned char *)b, (int)k, c);
    b += k;
    n -= k;
  }
  return ~c;
}

uint32_t hfg_crc32(uint32_t crc, const void *p, size_t n) {
  const uint8_t *b = p;
  while (n) {
    size_t k = n < ISAL_STEP ? n : ISAL_STEP;
    crc = crc32_gzip_refl(crc, b, k);
    b += k;
    n -= k;
  }
  return crc;
}

const char *hfg_crc_impl(void) { return "isa-l"; }
#else
uint32_t hfg_crc32c(uint32_t crc, const void *p, size_t n) { return hfg_crc32c_sw(crc, p, n); }
uint32_t hfg_crc32(uint32_t crc, const void *p, size_t n) { return hfg_crc32_sw(crc, p, n); }
const char *hfg_crc_impl(void) { return "slicing-by-8"; }
#endif
