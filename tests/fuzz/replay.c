/*
 * Plain driver for the fuzz targets: runs every file given (directories are
 * read one level deep, in name order) through LLVMFuzzerTestOneInput once.
 * ctest runs it over tests/fuzz/corpus/<target>/ in the release and the
 * ASan/UBSan builds, so every CI run re-checks the corpora. A crash or a
 * failed invariant aborts the process (naming the file on stderr first).
 * Usage: fuzz_<target>_replay PATH...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static size_t replayed;

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return -1;
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  /* exactly n bytes on the heap, so ASan sees any read past the input */
  uint8_t *p = malloc(n > 0 ? (size_t)n : 1);
  if (!p || (n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n)) {
    fclose(f);
    free(p);
    fprintf(stderr, "%s: cannot read\n", path);
    return -1;
  }
  fclose(f);
  fprintf(stderr, "replay %s (%ld bytes)\n", path, n);
  LLVMFuzzerTestOneInput(p, (size_t)n);
  free(p);
  replayed++;
  return 0;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  int bad = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st)) {
      perror(argv[i]);
      bad++;
      continue;
    }
    if (!S_ISDIR(st.st_mode)) {
      bad += run_file(argv[i]) != 0;
      continue;
    }
    DIR *d = opendir(argv[i]);
    if (!d) {
      perror(argv[i]);
      bad++;
      continue;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
      if (de->d_name[0] == '.') continue;
      names = realloc(names, (n + 1) * sizeof *names);
      names[n++] = strdup(de->d_name);
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_names);
    for (size_t k = 0; k < n; k++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
      if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) bad += run_file(path) != 0;
      free(names[k]);
    }
    free(names);
  }
  if (replayed == 0) bad++;
  printf("%zu inputs replayed\n%d passed, %d failed\n", replayed, bad ? 0 : 1, bad ? 1 : 0);
  return bad ? 1 : 0;
}
