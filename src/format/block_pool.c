/*
 * Block encoding pool (block_pool.h). One mutex guards the queue and every
 * slot's state; encoding itself runs unlocked. Queued slots of all streams
 * form one FIFO, so workers take blocks in the order they were submitted.
 *
 * Slot states: FREE → QUEUED (submit) → RUNNING (a worker or the stream's own
 * thread took it) → DONE → FREE (pop). A slot is only touched unlocked by the
 * thread that set it RUNNING, and by the stream's thread once it is DONE.
 */
#include "format/block_pool.h"

#include <pthread.h>
#include <sched.h>

#include "util/alloc.h"

enum { S_FREE, S_QUEUED, S_RUNNING, S_DONE };

typedef struct slot {
  struct slot *prev, *next; /* in the pool's queue while QUEUED */
  hfg_block_stream *s;
  int state;
  hfg_block_type type;
  hfg_buf payload;          /* owned payload (capacity kept between blocks) */
  const uint8_t *data;      /* what to encode: payload.p or borrowed bytes */
  size_t n;
  hfg_buf out;
  hfg_block_info info;
  int rc;
  hfg_err err;
} slot;

/* A codec setting: what a stream encodes with. */
typedef struct setting {
  hfg_codec codec;
  int level;
  hfg_checksum_type checksum;
  uint32_t bpc;
} setting;

struct hfg_block_stream {
  hfg_block_pool *pool;
  setting set;
  hfg_block_encoder *own;   /* for blocks this stream's thread runs itself */
  pthread_cond_t done;      /* a slot of this stream became DONE */
  slot *slots;
  unsigned cap, head, count;
};

#define WORKER_ENCODERS 4 /* codec settings a worker keeps contexts for */

typedef struct worker {
  hfg_block_pool *pool;
  pthread_t th;
  setting set[WORKER_ENCODERS];
  hfg_block_encoder *enc[WORKER_ENCODERS];
  unsigned nenc;
} worker;

struct hfg_block_pool {
  pthread_mutex_t mu;
  pthread_cond_t work;      /* the queue is not empty, or stop */
  slot *qhead, *qtail;
  int stop;
  worker *w;
  unsigned nworkers;
  unsigned producers;       /* threads submitting blocks now (hfg_block_pool_producers) */
  uint64_t worker_blocks;   /* blocks the workers encoded */
};

/* Whether the workers take blocks as they are submitted: only while some
 * core has no producer of its own (called locked). */
static int workers_help(const hfg_block_pool *p) { return p->producers < p->nworkers; }

static void q_push(hfg_block_pool *p, slot *x) {
  x->next = NULL;
  x->prev = p->qtail;
  if (p->qtail) p->qtail->next = x;
  else p->qhead = x;
  p->qtail = x;
}

static void q_unlink(hfg_block_pool *p, slot *x) {
  if (x->prev) x->prev->next = x->next;
  else p->qhead = x->next;
  if (x->next) x->next->prev = x->prev;
  else p->qtail = x->prev;
  x->prev = x->next = NULL;
}

/* What a slot's buffers go back to after a block far larger than this one (a long cell):
 * twice this block, so that a long cell's bytes do not stay in every slot. */
static size_t keep_for(size_t n) { return 2 * n + 65536; }

static void encode(slot *x, hfg_block_encoder *e) {
  hfg_buf_reset(&x->out);
  if (x->out.cap > ((size_t)1 << 20) && x->out.cap > 2 * keep_for(x->n))
    hfg_buf_trim(&x->out, keep_for(x->n));
  hfg_err_clear(&x->err);
  if (!e) {
    x->rc = hfg_err_set(&x->err, HFG_ENOMEM, "out of memory for a block encoder");
    return;
  }
  x->rc = hfg_block_encode(e, x->type, x->data, x->n, -1, &x->out, &x->info, &x->err);
}

static int same_setting(const setting *a, const setting *b) {
  return a->codec == b->codec && a->level == b->level && a->checksum == b->checksum &&
         a->bpc == b->bpc;
}

/* The worker's encoder for a setting; the least recently added one makes room. */
static hfg_block_encoder *worker_encoder(worker *w, const setting *st) {
  for (unsigned i = 0; i < w->nenc; i++)
    if (same_setting(&w->set[i], st)) return w->enc[i];
  if (w->nenc == WORKER_ENCODERS) {
    hfg_block_encoder_free(w->enc[0]);
    for (unsigned i = 1; i < WORKER_ENCODERS; i++) {
      w->enc[i - 1] = w->enc[i];
      w->set[i - 1] = w->set[i];
    }
    w->nenc--;
  }
  hfg_block_encoder *e = hfg_block_encoder_new(st->codec, st->level, st->checksum, st->bpc);
  if (!e) return NULL;
  w->set[w->nenc] = *st;
  w->enc[w->nenc++] = e;
  return e;
}

static void *worker_main(void *arg) {
  worker *w = arg;
  hfg_block_pool *p = w->pool;
  pthread_mutex_lock(&p->mu);
  for (;;) {
    /* An idle worker yields a while before it sleeps: a writer submits a block
     * every few tens of µs, and a futex sleep and wake-up per block left about
     * a fifth of two cores idle in one region's emit (bench/threads.sh: 1 region
     * at --threads 2, 1.32× of 1 thread before, 1.6× after); yielding also
     * hands the core to the writer's thread when threads outnumber cores.
     * With a producer for every worker there is no core to spare: no spin,
     * and no wake-up (submit signals none), each producer encodes its own
     * blocks; the context switches of spinning cost a fifth of the CPU of a
     * job without compression (bench/ab.sh, 1 GB, 10 regions at --threads 2,
     * NONE: 5.25 -> 4.03 CPU s). */
    for (int spin = 0; spin < 200 && !p->qhead && !p->stop && workers_help(p); spin++) {
      pthread_mutex_unlock(&p->mu);
      sched_yield();
      pthread_mutex_lock(&p->mu);
    }
    while (!p->stop && (!p->qhead || !workers_help(p))) pthread_cond_wait(&p->work, &p->mu);
    if (p->stop) break;
    slot *x = p->qhead;
    q_unlink(p, x);
    x->state = S_RUNNING;
    setting st = x->s->set;
    pthread_mutex_unlock(&p->mu);
    encode(x, worker_encoder(w, &st));
    pthread_mutex_lock(&p->mu);
    x->state = S_DONE;
    p->worker_blocks++;
    pthread_cond_signal(&x->s->done);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

hfg_block_pool *hfg_block_pool_new(unsigned workers) {
  hfg_block_pool *p = hfg_calloc(1, sizeof *p);
  if (!p) return NULL;
  if (workers && !(p->w = hfg_calloc(workers, sizeof *p->w))) {
    hfg_free(p);
    return NULL;
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  for (unsigned i = 0; i < workers; i++) {
    p->w[i].pool = p;
    if (pthread_create(&p->w[i].th, NULL, worker_main, &p->w[i])) break;
    pthread_mutex_lock(&p->mu); /* the workers started read it (workers_help) */
    p->nworkers++;
    pthread_mutex_unlock(&p->mu);
  }
  if (p->nworkers < workers && p->nworkers == 0) {
    hfg_block_pool_free(p);
    return NULL;
  }
  return p;
}

void hfg_block_pool_free(hfg_block_pool *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (unsigned i = 0; i < p->nworkers; i++) {
    pthread_join(p->w[i].th, NULL);
    for (unsigned k = 0; k < p->w[i].nenc; k++) hfg_block_encoder_free(p->w[i].enc[k]);
  }
  pthread_cond_destroy(&p->work);
  pthread_mutex_destroy(&p->mu);
  hfg_free(p->w);
  hfg_free(p);
}

void hfg_block_pool_producers(hfg_block_pool *p, int delta) {
  pthread_mutex_lock(&p->mu);
  int before = workers_help(p);
  p->producers = (unsigned)((int)p->producers + delta);
  if (!before && workers_help(p)) pthread_cond_broadcast(&p->work); /* blocks queued meanwhile */
  pthread_mutex_unlock(&p->mu);
}

uint64_t hfg_block_pool_worker_blocks(hfg_block_pool *p) {
  pthread_mutex_lock(&p->mu);
  uint64_t n = p->worker_blocks;
  pthread_mutex_unlock(&p->mu);
  return n;
}

hfg_block_stream *hfg_block_stream_new(hfg_block_pool *p, unsigned slots, hfg_codec codec,
                                       int level, hfg_checksum_type checksum,
                                       uint32_t bytes_per_checksum) {
  if (!p || slots == 0) return NULL;
  hfg_block_stream *s = hfg_calloc(1, sizeof *s);
  if (!s) return NULL;
  s->pool = p;
  s->set = (setting){codec, level, checksum, bytes_per_checksum};
  s->slots = hfg_calloc(slots, sizeof *s->slots);
  s->own = hfg_block_encoder_new(codec, level, checksum, bytes_per_checksum);
  if (!s->slots || !s->own) {
    hfg_block_encoder_free(s->own);
    hfg_free(s->slots);
    hfg_free(s);
    return NULL;
  }
  s->cap = slots;
  for (unsigned i = 0; i < slots; i++) s->slots[i].s = s;
  pthread_cond_init(&s->done, NULL);
  return s;
}

void hfg_block_stream_free(hfg_block_stream *s) {
  if (!s) return;
  hfg_block_pool *p = s->pool;
  pthread_mutex_lock(&p->mu);
  for (unsigned i = 0; i < s->cap; i++) {
    slot *x = &s->slots[i];
    if (x->state == S_QUEUED) {
      q_unlink(p, x);
      x->state = S_FREE;
    }
    while (x->state == S_RUNNING) pthread_cond_wait(&s->done, &p->mu);
  }
  pthread_mutex_unlock(&p->mu);
  for (unsigned i = 0; i < s->cap; i++) {
    hfg_buf_free(&s->slots[i].payload);
    hfg_buf_free(&s->slots[i].out);
  }
  pthread_cond_destroy(&s->done);
  hfg_block_encoder_free(s->own);
  hfg_free(s->slots);
  hfg_free(s);
}

unsigned hfg_block_stream_pending(const hfg_block_stream *s) { return s->count; }
int hfg_block_stream_full(const hfg_block_stream *s) { return s->count == s->cap; }

int hfg_block_stream_submit(hfg_block_stream *s, hfg_block_type type, hfg_buf *owned,
                            const uint8_t *borrowed, size_t n) {
  if (s->count == s->cap) return HFG_ESTATE;
  slot *x = &s->slots[(s->head + s->count) % s->cap];
  x->type = type;
  x->n = n;
  if (owned) {
    hfg_buf t = x->payload;
    x->payload = *owned;
    hfg_buf_reset(&t);
    if (t.cap > ((size_t)1 << 20) && t.cap > 2 * keep_for(n)) hfg_buf_trim(&t, keep_for(n));
    *owned = t;
    x->data = x->payload.p;
  } else {
    x->data = borrowed;
  }
  s->count++;
  hfg_block_pool *p = s->pool;
  pthread_mutex_lock(&p->mu);
  x->state = S_QUEUED;
  if (p->nworkers) {
    q_push(p, x);
    if (workers_help(p)) pthread_cond_signal(&p->work);
  }
  pthread_mutex_unlock(&p->mu);
  return 0;
}

/* The oldest queued slot of s, or NULL (called locked). */
static slot *own_queued(hfg_block_stream *s) {
  for (unsigned i = 0; i < s->count; i++) {
    slot *x = &s->slots[(s->head + i) % s->cap];
    if (x->state == S_QUEUED) return x;
  }
  return NULL;
}

int hfg_block_stream_oldest(hfg_block_stream *s, uint8_t **block, size_t *len,
                            hfg_block_info *info, hfg_err *err) {
  if (s->count == 0) return HFG_ESTATE;
  hfg_block_pool *p = s->pool;
  slot *x = &s->slots[s->head];
  pthread_mutex_lock(&p->mu);
  while (x->state != S_DONE) {
    /* rather than sleep, encode one of our own blocks still in the queue */
    slot *y = own_queued(s);
    if (!y) {
      pthread_cond_wait(&s->done, &p->mu);
      continue;
    }
    if (p->nworkers) q_unlink(p, y);
    y->state = S_RUNNING;
    pthread_mutex_unlock(&p->mu);
    encode(y, s->own);
    pthread_mutex_lock(&p->mu);
    y->state = S_DONE;
  }
  pthread_mutex_unlock(&p->mu);
  if (x->rc) {
    hfg_err_set(err, x->rc, "%s", x->err.msg);
    return x->rc;
  }
  *block = x->out.p;
  *len = x->out.len;
  *info = x->info;
  return 0;
}

void hfg_block_stream_pop(hfg_block_stream *s) {
  if (s->count == 0) return;
  slot *x = &s->slots[s->head];
  x->state = S_FREE; /* DONE: no other thread looks at it */
  x->data = NULL;
  s->head = (s->head + 1) % s->cap;
  s->count--;
}
