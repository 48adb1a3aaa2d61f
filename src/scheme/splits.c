/*
 * Split keys for pre-splitting a table: aligned to a scheme's bucket prefix,
 * or HBase's RegionSplitter algorithms reproduced exactly
 * (hbase-server org/apache/hadoop/hbase/util/RegionSplitter.java:
 * HexStringSplit, DecimalStringSplit, UniformSplit; Bytes.split for the
 * latter). format-specs/rowkey-templates.md, "Split keys".
 */
#include <stdio.h>
#include <string.h>

#include "scheme/lists.h"
#include "scheme/scheme_internal.h"
#include "util/coding.h"

static const char *const ALGOS[] = {"scheme", "hex", "hex-legacy", "decimal", "uniform"};

const char *hfg_split_algo_name(hfg_split_algo a) {
  return (unsigned)a < sizeof ALGOS / sizeof ALGOS[0] ? ALGOS[a] : "?";
}

int hfg_split_algo_parse(const char *name, hfg_split_algo *out) {
  for (unsigned i = 0; i < sizeof ALGOS / sizeof ALGOS[0]; i++)
    if (!strcmp(name, ALGOS[i])) {
      *out = (hfg_split_algo)i;
      return 0;
    }
  /* HBase's class names are accepted too. */
  if (!strcmp(name, "HexStringSplit")) return *out = HFG_SPLIT_HEX, 0;
  if (!strcmp(name, "DecimalStringSplit")) return *out = HFG_SPLIT_DECIMAL, 0;
  if (!strcmp(name, "UniformSplit")) return *out = HFG_SPLIT_UNIFORM, 0;
  return -1;
}

static int warn(hfg_findings **w, const char *code, const char *why, const char *fix,
                const char *msg) {
  if (!w) return 0;
  if (!*w && !(*w = findings_new())) return HFG_ENOMEM;
  return findings_add(*w, HFG_SEV_WARNING, code, why, fix, "%s", msg);
}

static int unpadded_refusal(const hfg_bucket_info *b, char *em, size_t el) {
  return scheme_errf(em, el, HFG_EINVAL,
                     "the scheme's %llu bucket numbers are not zero-padded: keys sort '10' before "
                     "'2', so no split keys follow the bucket order; pad them ({x %% %llu :0%d})",
                     (unsigned long long)b->buckets, (unsigned long long)b->buckets,
                     scheme_digits(b->buckets - 1));
}

/* Split keys over the scheme's bucket space: bucket floor(i * B / R). */
static int scheme_splits(const hfg_scheme *s, uint64_t regions, hfg_keylist *l, hfg_findings **w,
                         char *em, size_t el) {
  hfg_bucket_info b;
  hfg_scheme_bucket(s, &b);
  if (b.kind == HFG_BUCKET_NONE)
    return scheme_errf(em, el, HFG_EINVAL,
                       "the template does not start with a bucket ({x %% N}, {hex(hash(x), n)}, "
                       "{phoenix_salt(...)}): no prefix space to align to; use --algo sample "
                       "--input FILE (split points where the data's own keys fall), or --algo "
                       "hex, decimal or uniform");
  if (b.kind == HFG_BUCKET_DECIMAL && b.width == 0) return unpadded_refusal(&b, em, el);
  /* The bucket part, to render bucket numbers exactly as eval does. */
  size_t pi = 0;
  while (s->parts[pi].root < 0) pi++;
  spart p = s->parts[pi];
  uint64_t space = b.buckets;
  if (b.kind == HFG_BUCKET_HEX && p.bwidth > 8) { /* split on the first 8 hex chars */
    p.bwidth = 8;
    space = 1ull << 32;
  }
  if (regions > space)
    return scheme_errf(em, el, HFG_EINVAL,
                       "%llu regions but only %llu buckets: a bucket cannot be split without "
                       "knowing the keys inside it (use at most %llu regions, or more buckets)",
                       (unsigned long long)regions, (unsigned long long)space,
                       (unsigned long long)space);
  if (space % regions) {
    char msg[256];
    snprintf(msg, sizeof msg,
             "%llu buckets are not a multiple of %llu regions: regions get %llu or %llu buckets",
             (unsigned long long)space, (unsigned long long)regions,
             (unsigned long long)(space / regions), (unsigned long long)(space / regions + 1));
    int rc = warn(w, "buckets-not-multiple",
                  "regions holding one bucket more take proportionally more writes and data",
                  "choose a region count that divides the bucket count", msg);
    if (rc) return rc;
  }
  uint8_t key[300];
  /* the literal prefix is template text of any length; a rendered bucket takes
   * <= SCHEME_BUCKET_MAX bytes */
  if (b.prefix_len > sizeof key - SCHEME_BUCKET_MAX)
    return scheme_errf(em, el, HFG_ETOOBIG,
                       "the literal text before the bucket is %zu bytes long; split keys allow "
                       "at most %zu",
                       b.prefix_len, sizeof key - SCHEME_BUCKET_MAX);
  for (uint64_t i = 1; i < regions; i++) {
    uint64_t k = (uint64_t)((unsigned __int128)i * space / regions);
    if (b.prefix_len) memcpy(key, b.prefix, b.prefix_len);
    size_t n = b.prefix_len + scheme_render_bucket(&p, k, key + b.prefix_len);
    if (keylist_add(l, key, n)) return HFG_ENOMEM;
  }
  return 0;
}

/* HexStringSplit / DecimalStringSplit: range [0, last] in radix, 8 digits.
 * Current HBase adds 1 to the range because the last row is inclusive; HBase
 * 1.x and earlier did not (the "legacy" variant, 4 regions -> 3fffffff...). */
static int number_splits(unsigned radix, int legacy, uint64_t regions, hfg_keylist *l, char *em,
                         size_t el) {
  uint64_t last = radix == 16 ? 0xffffffffull : 99999999ull;
  uint64_t range = legacy ? last : last + 1;
  if (regions > range)
    return scheme_errf(em, el, HFG_EINVAL, "split granularity (%llu) is greater than the range (%llu)",
                       (unsigned long long)regions, (unsigned long long)range);
  uint64_t size = range / regions;
  for (uint64_t i = 1; i < regions; i++) {
    uint64_t v = size * i;
    char key[8];
    for (int k = 7; k >= 0; k--, v /= radix) key[k] = "0123456789abcdef"[v % radix];
    if (keylist_add(l, key, 8)) return HFG_ENOMEM;
  }
  return 0;
}

/* UniformSplit over [empty, ff*8]: Bytes.split pads both ends to 8 bytes and
 * steps by floor(2^64 / regions) (the inclusive range of 2^64 values). */
static int uniform_splits(uint64_t regions, hfg_keylist *l) {
  unsigned __int128 step = ((unsigned __int128)1 << 64) / regions;
  for (uint64_t i = 1; i < regions; i++) {
    uint8_t key[8];
    hfg_put_be64(key, (uint64_t)(step * i));
    if (keylist_add(l, key, 8)) return HFG_ENOMEM;
  }
  return 0;
}

/* A scheme given with a RegionSplitter algorithm: refuse what its keys can
 * never follow, warn about what wastes regions. */
static int check_algo_fit(const hfg_scheme *s, hfg_split_algo algo, hfg_findings **w, char *em,
                          size_t el) {
  hfg_bucket_info b;
  hfg_scheme_bucket(s, &b);
  if (algo == HFG_SPLIT_HEX || algo == HFG_SPLIT_HEX_LEGACY) {
    if (b.kind == HFG_BUCKET_HEX && b.upper)
      return scheme_errf(em, el, HFG_EINVAL,
                         "HexStringSplit keys are lowercase hex but the scheme's prefix is "
                         "uppercase: 'A'..'F' sort before 'a', so every key from 'A' up lands in "
                         "the regions below 'a...'; use --algo scheme or lowercase the prefix");
    if (b.kind == HFG_BUCKET_DECIMAL && b.width == 0) return unpadded_refusal(&b, em, el);
  }
  if (algo == HFG_SPLIT_DECIMAL) {
    if (b.kind == HFG_BUCKET_DECIMAL && b.width == 0) return unpadded_refusal(&b, em, el);
    if (b.kind == HFG_BUCKET_HEX)
      return scheme_errf(em, el, HFG_EINVAL,
                         "DecimalStringSplit keys are decimal digits but the scheme's prefix is "
                         "hex: keys from 'a' up all land in the last region; use --algo hex or scheme");
  }
  const char *mismatch = NULL;
  if ((algo == HFG_SPLIT_HEX || algo == HFG_SPLIT_HEX_LEGACY) && b.kind != HFG_BUCKET_HEX)
    mismatch = "HexStringSplit assumes a uniformly distributed lowercase hex prefix; this scheme's "
               "prefix is not one";
  else if (algo == HFG_SPLIT_DECIMAL && b.kind != HFG_BUCKET_DECIMAL)
    mismatch = "DecimalStringSplit assumes a uniformly distributed 8-digit decimal prefix; this "
               "scheme's prefix is not one";
  else if (algo == HFG_SPLIT_UNIFORM && b.kind != HFG_BUCKET_BYTE)
    mismatch = "UniformSplit assumes uniformly random leading bytes 00..ff; a text prefix uses few "
               "byte values, so most regions stay empty";
  else if (algo != HFG_SPLIT_SCHEME && b.prefix_len)
    mismatch = "every key starts with the template's literal prefix, outside most of the "
               "algorithm's split points";
  if (mismatch)
    return warn(w, "algo-mismatch", "regions whose key range the scheme never produces stay empty",
                "use --algo scheme to align split keys to the template's bucket prefix", mismatch);
  if (b.kind == HFG_BUCKET_DECIMAL && algo == HFG_SPLIT_DECIMAL && b.width != 8)
    return warn(w, "algo-mismatch", "regions whose key range the scheme never produces stay empty",
                "use --algo scheme to align split keys to the template's bucket prefix",
                "DecimalStringSplit splits 8-digit numbers; the scheme's buckets have another width");
  return 0;
}

int hfg_splits_compute(const hfg_scheme *s, hfg_split_algo algo, uint64_t regions,
                       hfg_keylist **out, hfg_findings **warnings, char *errmsg, size_t errlen) {
  *out = NULL;
  if (regions < 1) return scheme_errf(errmsg, errlen, HFG_EINVAL, "region count must be at least 1");
  if (algo == HFG_SPLIT_SCHEME && !s)
    return scheme_errf(errmsg, errlen, HFG_EINVAL, "--algo scheme needs a rowkey template");
  int rc = 0;
  if (s && algo != HFG_SPLIT_SCHEME) rc = check_algo_fit(s, algo, warnings, errmsg, errlen);
  if (rc) return rc;
  hfg_keylist *l = keylist_new();
  if (!l) return scheme_errf(errmsg, errlen, HFG_ENOMEM, "out of memory");
  switch (algo) {
    case HFG_SPLIT_SCHEME: rc = scheme_splits(s, regions, l, warnings, errmsg, errlen); break;
    case HFG_SPLIT_HEX: rc = number_splits(16, 0, regions, l, errmsg, errlen); break;
    case HFG_SPLIT_HEX_LEGACY: rc = number_splits(16, 1, regions, l, errmsg, errlen); break;
    case HFG_SPLIT_DECIMAL: rc = number_splits(10, 0, regions, l, errmsg, errlen); break;
    case HFG_SPLIT_UNIFORM: rc = uniform_splits(regions, l); break;
    default: rc = scheme_errf(errmsg, errlen, HFG_EINVAL, "unknown split algorithm"); break;
  }
  if (rc == HFG_ENOMEM) scheme_errf(errmsg, errlen, HFG_ENOMEM, "out of memory");
  if (rc) {
    hfg_keylist_free(l);
    return rc;
  }
  *out = l;
  return 0;
}
