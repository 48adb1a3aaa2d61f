/*
 * manifest.json as `hfilegen build` writes it (build/build_publish.c), read
 * back for verify: the build's split keys, how many files it lists and how
 * many records it wrote. JSON is a YAML flow mapping, so libyaml reads it.
 */
#ifndef HFG_CLI_MANIFEST_READ_H
#define HFG_CLI_MANIFEST_READ_H

#include <stddef.h>
#include <stdint.h>

typedef struct cli_manifest {
  int has_splits;            /* a "splits" list was there (it may be empty) */
  uint8_t **splits;          /* its keys, unescaped (util/escape.h) */
  size_t *split_lens;
  size_t nsplits;
  long long nfiles;          /* entries of "files"; -1: no such list */
  long long records_written; /* -1: no such number */
} cli_manifest;

/* Reads path into *m (zeroed first). 0, or -1 when the file cannot be read,
 * is not a JSON object, or holds a malformed "splits" key; *m then holds
 * nothing to free. */
int cli_manifest_read(const char *path, cli_manifest *m);
void cli_manifest_free(cli_manifest *m);

#endif
