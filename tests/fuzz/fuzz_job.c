/*
 * Fuzz target: the YAML job-file loader of `hfilegen build --job`
 * (src/cli/opts.c cli_load_job, on libyaml), linked from the CLI sources.
 * The input is the file. It may fail (it prints why on stderr) but must not
 * crash, leak or overrun its input/map arrays; whatever it loaded is freed
 * with cli_free_columns, as cmd_build does.
 */
#include <string.h>

#include "cli/opts.h"
#include "fuzz.h"

#define CAP 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[64];
  int fd = fz_memfile(data, size, path, sizeof path);
  if (fd < 0) return 0;
  hfg_build_options o;
  hfg_build_options_init(&o);
  const char *inputs[CAP], *maps[CAP];
  size_t ninputs = 0, nmaps = 0;
  int rc = cli_load_job(path, &o, inputs, &ninputs, maps, &nmaps, CAP);
  FZ_ASSERT(rc == 0 || rc == -1);
  FZ_ASSERT(ninputs <= CAP && nmaps <= CAP);
  for (size_t i = 0; i < ninputs; i++) FZ_ASSERT(inputs[i] != NULL);
  for (size_t i = 0; i < nmaps; i++) FZ_ASSERT(maps[i] != NULL);
  if (o.columns)
    for (size_t i = 0; i < o.ncolumns; i++) FZ_ASSERT(o.columns[i] != NULL);
  cli_free_columns(NULL, &o);
  cli_quiet = 0;
  close(fd);
  return 0;
}
