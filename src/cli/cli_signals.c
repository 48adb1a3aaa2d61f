/* The CLI's signal handling for jobs that write an output (cli_signals.h). */
#include "cli/cli_signals.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* SIGINT, SIGTERM, SIGHUP ask the job to stop (hfg_build_options.cancel): it
 * removes its temporaries, spill runs and staging directory and the command
 * exits 128 + the signal. More of them change nothing (timeout sends its
 * signal twice, to the job and to its process group): the clean-up is never
 * cut short. Only a SIGINT from the terminal after an earlier SIGINT (Ctrl-C
 * twice, when the job waits on a silent input) ends it at once, and even then
 * a thread first removes the staging directory and spill runs
 * (hfg_build_abandon); the signal handler only wakes it. */
volatile sig_atomic_t cli_interrupted;
static _Atomic int sigints, hurried;
static sem_t hurry;
static const int caught[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction before[3];
static int installed[3];

static void on_signal(int sig, siginfo_t *si, void *uc) {
  (void)uc;
  if (!cli_interrupted) cli_interrupted = sig; /* the first one names the stop */
  if (sig != SIGINT || atomic_fetch_add(&sigints, 1) == 0) return;
  if (si && si->si_code == SI_KERNEL && !atomic_exchange(&hurried, 1)) /* from the tty */
    sem_post(&hurry);
}

typedef struct hurry_ctx {
  const char *cmd;
  const hfg_build_options *o;
  _Atomic int over; /* the job returned: nothing left to hurry */
} hurry_ctx;
static hurry_ctx hc;
static pthread_t hurry_thread;
static int hurrying;

static void *hurry_main(void *arg) {
  hurry_ctx *h = arg;
  while (sem_wait(&hurry) && errno == EINTR) {
  }
  if (atomic_load(&h->over)) return NULL;
  char stage[4096], msg[9000];
  uint64_t b = hfg_build_abandon(h->o, stage, sizeof stage);
  const char *nl = isatty(2) ? "\n" : ""; /* after the ^C echoed, or a progress line */
  int n;
  if (stage[0])
    n = snprintf(msg, sizeof msg,
                 "%shfilegen %s: interrupted by SIGINT twice: exiting at once; removed the "
                 "staging directory %s with its spill runs (%.1f MB); nothing was published in "
                 "%s\n",
                 nl, h->cmd, stage, (double)b / 1e6, h->o->out_dir);
  else
    n = snprintf(msg, sizeof msg,
                 "%shfilegen %s: interrupted by SIGINT twice: exiting at once; removed the "
                 "job's spill runs and temporary HFiles (%.1f MB)\n",
                 nl, h->cmd, (double)b / 1e6);
  if (n > 0) { /* write(2): the main thread may hold stderr's lock */
    ssize_t w = write(2, msg, (size_t)n < sizeof msg ? (size_t)n : sizeof msg - 1);
    (void)w;
  }
  _exit(128 + SIGINT);
}

static void catch_signals(void) {
  for (size_t k = 0; k < sizeof caught / sizeof *caught; k++) {
    struct sigaction sa;
    installed[k] = 0;
    if (sigaction(caught[k], NULL, &before[k]) || before[k].sa_handler == SIG_IGN)
      continue; /* nohup */
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_RESTART | SA_SIGINFO; /* no SA_RESETHAND: a second one is caught too */
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof caught / sizeof *caught; i++) sigaddset(&sa.sa_mask, caught[i]);
    installed[k] = sigaction(caught[k], &sa, NULL) == 0;
  }
  /* A file size limit (ulimit -f, RLIMIT_FSIZE) kills the process with SIGXFSZ
   * by default, mid-write, leaving the staging directory (and a user's own
   * empty output directory hidden in it). Ignored, the write fails with EFBIG
   * and the job fails like on a full disk: temporaries removed, <out> back. */
  signal(SIGXFSZ, SIG_IGN);
}

/* After the job: nothing of it is on disk any more, a signal acts as before. */
static void release_signals(void) {
  for (size_t k = 0; k < sizeof caught / sizeof *caught; k++)
    if (installed[k]) sigaction(caught[k], &before[k], NULL);
}

const char *cli_signal_name(int sig) {
  return sig == SIGINT    ? "SIGINT"
         : sig == SIGTERM ? "SIGTERM"
         : sig == SIGHUP  ? "SIGHUP"
                          : "a signal";
}

void cli_signals_begin(const char *cmd, const hfg_build_options *o) {
  hc.cmd = cmd;
  hc.o = o;
  atomic_store(&hc.over, 0);
  hurrying = sem_init(&hurry, 0, 0) == 0 && !pthread_create(&hurry_thread, NULL, hurry_main, &hc);
  if (!hurrying) atomic_store(&hurried, 1); /* then Ctrl-C twice waits for the clean-up too */
  catch_signals();
}

void cli_signals_end(void) {
  atomic_store(&hc.over, 1);
  release_signals();
  if (hurrying) {
    if (!atomic_exchange(&hurried, 1)) sem_post(&hurry);
    pthread_join(hurry_thread, NULL); /* unless it is removing the job's files: then it exits */
  }
}
