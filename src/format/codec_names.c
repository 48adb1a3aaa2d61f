/*
 * Command-line / job-file names of the codecs (format-specs/codecs.md, "Names").
 * ZSTD has two names and no plain "zstd": its two HBase framings cannot read
 * each other's blocks, so the user must say which one the cluster runs.
 */
#include <stddef.h>

#include "hfilegen/types.h"

static const char *const codec_names[HFG_CODEC_COUNT_] = {
    [HFG_CODEC_NONE] = "none",
    [HFG_CODEC_GZ] = "gz",
    [HFG_CODEC_SNAPPY] = "snappy",
    [HFG_CODEC_LZ4] = "lz4",
    [HFG_CODEC_ZSTD_HADOOP] = "zstd-hadoop",
    [HFG_CODEC_ZSTD_HBASE] = "zstd-hbase",
};

const char *hfg_codec_name(hfg_codec c) {
  return (unsigned)c < HFG_CODEC_COUNT_ ? codec_names[c] : NULL;
}

/* ASCII-only, so the result does not depend on the C locale. */
static int ascii_ieq(const char *a, const char *b) {
  for (;; a++, b++) {
    char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
    char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
    if (x != y) return 0;
    if (!x) return 1;
  }
}

int hfg_codec_parse(const char *name, hfg_codec *out) {
  if (!name || !out) return -1;
  for (int i = 0; i < HFG_CODEC_COUNT_; i++) {
    if (ascii_ieq(name, codec_names[i])) {
      *out = (hfg_codec)i;
      return 0;
    }
  }
  if (ascii_ieq(name, "gzip")) {
    *out = HFG_CODEC_GZ;
    return 0;
  }
  return -1; /* includes plain "zstd": ambiguous between the two framings */
}
