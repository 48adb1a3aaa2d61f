#include "util/aout.h"

#include <pthread.h>

#include "util/alloc.h"
#include "util/fsio.h"

typedef struct slot {
  uint8_t *p;
  size_t len;
  uint64_t off;
} slot;

/* Slots form a ring: the caller fills s[fill]; the `queued` slots before it
 * are submitted and not yet written, the oldest first; the thread writes the
 * oldest and counts it off only when its write has returned. */
struct hfg_aout {
  int fd, direct;
  unsigned depth, fill, queued;
  slot *s;
  int rc;             /* the first failed write's error; then nothing more is written */
  uint64_t failed_at;
  int threaded, stop;
  pthread_t th;
  pthread_mutex_t mu;
  pthread_cond_t work, done;
};

static void *writer_main(void *arg) {
  hfg_aout *a = arg;
  pthread_mutex_lock(&a->mu);
  for (;;) {
    while (!a->queued && !a->stop) pthread_cond_wait(&a->work, &a->mu);
    if (!a->queued) break; /* stopped, nothing left */
    if (a->rc) {           /* failed: what is queued is dropped */
      a->queued = 0;
      pthread_cond_broadcast(&a->done);
      continue;
    }
    slot x = a->s[(a->fill + a->depth - a->queued) % a->depth];
    int direct = a->direct;
    pthread_mutex_unlock(&a->mu);
    int rc = hfg_io_pwrite_all(a->fd, x.p, x.len, x.off, &direct);
    pthread_mutex_lock(&a->mu);
    a->direct = direct;
    if (rc && !a->rc) {
      a->rc = rc;
      a->failed_at = x.off;
    }
    a->queued--;
    pthread_cond_broadcast(&a->done);
  }
  pthread_mutex_unlock(&a->mu);
  return NULL;
}

hfg_aout *hfg_aout_new(int fd, int direct, size_t chunk, size_t align, unsigned depth) {
  hfg_aout *a = hfg_calloc(1, sizeof *a);
  if (!a) return NULL;
  a->fd = fd;
  a->direct = direct;
  a->depth = depth ? depth : 1;
  if (!(a->s = hfg_calloc(a->depth, sizeof *a->s))) {
    hfg_free(a);
    return NULL;
  }
  for (unsigned i = 0; i < a->depth; i++)
    if (!(a->s[i].p = hfg_malloc_aligned(align, chunk))) {
      for (unsigned k = 0; k < i; k++) hfg_free(a->s[k].p);
      hfg_free(a->s);
      hfg_free(a);
      return NULL;
    }
  pthread_mutex_init(&a->mu, NULL);
  pthread_cond_init(&a->work, NULL);
  pthread_cond_init(&a->done, NULL);
  /* no thread (a process at its limit): submit writes in place, one buffer */
  a->threaded = pthread_create(&a->th, NULL, writer_main, a) == 0;
  return a;
}

uint8_t *hfg_aout_buf(hfg_aout *a) {
  pthread_mutex_lock(&a->mu);
  while (a->queued == a->depth && !a->rc) pthread_cond_wait(&a->done, &a->mu);
  uint8_t *p = a->rc ? NULL : a->s[a->fill].p;
  pthread_mutex_unlock(&a->mu);
  return p;
}

int hfg_aout_submit(hfg_aout *a, size_t len, uint64_t off) {
  if (!a->threaded) {
    if (a->rc) return a->rc;
    int rc = hfg_io_pwrite_all(a->fd, a->s[a->fill].p, len, off, &a->direct);
    if (rc) {
      a->rc = rc;
      a->failed_at = off;
    }
    return rc;
  }
  pthread_mutex_lock(&a->mu);
  int rc = a->rc;
  if (!rc) {
    a->s[a->fill].len = len;
    a->s[a->fill].off = off;
    a->fill = (a->fill + 1) % a->depth;
    a->queued++;
    pthread_cond_signal(&a->work);
  }
  pthread_mutex_unlock(&a->mu);
  return rc;
}

int hfg_aout_drain(hfg_aout *a) {
  pthread_mutex_lock(&a->mu);
  while (a->queued) pthread_cond_wait(&a->done, &a->mu);
  int rc = a->rc;
  pthread_mutex_unlock(&a->mu);
  return rc;
}

uint64_t hfg_aout_failed_at(const hfg_aout *a) { return a->failed_at; }

int hfg_aout_direct(const hfg_aout *a) { return a->direct; }

void hfg_aout_free(hfg_aout *a) {
  if (!a) return;
  if (a->threaded) {
    pthread_mutex_lock(&a->mu);
    a->stop = 1;
    pthread_cond_signal(&a->work);
    pthread_mutex_unlock(&a->mu);
    pthread_join(a->th, NULL);
  }
  pthread_cond_destroy(&a->done);
  pthread_cond_destroy(&a->work);
  pthread_mutex_destroy(&a->mu);
  for (unsigned i = 0; i < a->depth; i++) hfg_free(a->s[i].p);
  hfg_free(a->s);
  hfg_free(a);
}
