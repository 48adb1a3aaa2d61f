/*
 * Fuzz target: the splits-file parser (src/build/splits.h). The input is
 * the file. Checks: a loaded list is strictly ascending with no empty key,
 * and the partitioner puts each split key at the start of its own region.
 */
#include <string.h>

#include "fuzz.h"
#include "build/splits.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  int fd = fz_memfile(data, size, path, sizeof path);
  if (fd < 0) return 0;
  hfg_splits s;
  hfg_err e = {0};
  int rc = hfg_splits_load(path, &s, &e);
  if (rc) {
    FZ_ASSERT(rc < 0 && e.code == rc && e.msg[0] != '\0');
    FZ_ASSERT(s.n == 0 && s.key == NULL);
  } else {
    FZ_ASSERT(hfg_splits_region(&s, (const uint8_t *)"", 0) == 0);
    for (size_t i = 0; i < s.n; i++) {
      FZ_ASSERT(s.len[i] > 0);
      if (i) {
        size_t m = s.len[i - 1] < s.len[i] ? s.len[i - 1] : s.len[i];
        int c = memcmp(s.key[i - 1], s.key[i], m);
        FZ_ASSERT(c < 0 || (c == 0 && s.len[i - 1] < s.len[i]));
      }
      FZ_ASSERT(hfg_splits_region(&s, s.key[i], s.len[i]) == i + 1);
    }
    hfg_splits_free(&s);
  }
  close(fd);
  return 0;
}
