/*
 * LD_PRELOAD shim for the crash test (tests/fault/crash_kill.sh): every
 * rename(2) first sleeps HFG_SLOW_RENAME_US microseconds (default 20000), so
 * that a build's publish phase lasts long enough for the test to kill it
 * there on purpose. It changes no result, only timing.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int rename(const char *from, const char *to) {
  static int (*real_rename)(const char *, const char *);
  if (!real_rename) real_rename = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "rename");
  const char *us = getenv("HFG_SLOW_RENAME_US");
  long n = us ? atol(us) : 20000;
  struct timespec ts = {n / 1000000, (n % 1000000) * 1000};
  nanosleep(&ts, NULL);
  return real_rename(from, to);
}
