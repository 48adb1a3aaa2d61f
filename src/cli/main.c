#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  fprintf(stderr, "usage: hfilegen <command> ...\n");
  return 2;
}
