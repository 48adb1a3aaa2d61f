/*
 * Record pump: see record_pump.h. The reading thread copies records into
 * batches (one byte arena per batch: raw bytes, field bytes, reason), a small
 * ring of batches goes back and forth between the two threads under one
 * mutex; the consumer hands out each record's slice of the batch's field
 * array as it is.
 */
#include "input/record_pump.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "util/alloc.h"
#include "util/buf.h"

#define BATCH_RECORDS 2048
#define BATCH_BYTES ((size_t)1 << 20)
#define NBATCH 4

typedef struct prec {
  int rc;
  const char *file;
  uint64_t line;
  size_t raw_off, raw_len;
  size_t field0, nfields;     /* into batch.fields */
  size_t reason_off;          /* SIZE_MAX: none */
} prec;

typedef struct batch {
  hfg_buf bytes;
  prec *recs;
  size_t nrecs;
  /* While the batch fills, a field's p holds its offset in bytes (which may
   * move as it grows); once full, the reading thread turns every offset into
   * a pointer, so the consumer hands out slices of this array as they are. */
  hfg_field *fields;
  size_t nfields, capfields;
  int last;                   /* the reading thread ends after this batch */
} batch;

struct hfg_record_pump {
  hfg_record_reader *r;
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  batch b[NBATCH];
  int full[NBATCH];           /* filled and not yet consumed */
  size_t produce, consume;    /* ring positions */
  _Atomic int stop;
  _Atomic uint64_t bytes_read;
  /* consumer state */
  size_t cur;                 /* record index in b[consume] */
  int holding;                /* the consumer owns b[consume] */
  int done;                   /* the stream ended: every later call returns final */
  int final;
};

/* A field's offset in the batch's bytes, parked in its pointer while filling. */
#define AS_OFFSET(off) ((const char *)(uintptr_t)(off))

static int batch_add(batch *b, const hfg_record *rec, int rc) {
  const size_t nf = rec->nfields;
  if (b->nfields + nf > b->capfields) {
    size_t cap = b->capfields ? b->capfields * 2 : 4096;
    while (cap < b->nfields + nf) cap *= 2;
    hfg_field *f = hfg_realloc(b->fields, cap * sizeof *f);
    if (!f) return HFG_ENOMEM;
    b->fields = f;
    b->capfields = cap;
  }
  /* room for the raw bytes and as many again for the fields copied out of
   * them (unquoted, unescaped: never longer than the raw bytes; a longer one
   * makes room for itself), so most records grow nothing */
  const hfg_field *in = rec->fields;
  if (rec->raw_len > (SIZE_MAX - b->bytes.len) / 2 ||
      hfg_buf_reserve(&b->bytes, rec->raw_len > BATCH_BYTES ? rec->raw_len : 2 * rec->raw_len))
    return HFG_ENOMEM; /* (a long record: its raw bytes; a field copied out grows it) */
  prec *p = &b->recs[b->nrecs];
  p->rc = rc;
  p->file = rec->file;
  p->line = rec->line;
  const size_t raw_off = b->bytes.len;
  p->raw_off = raw_off;
  p->raw_len = rec->raw_len;
  uint8_t *bytes = b->bytes.p;
  size_t blen = raw_off;
  if (rec->raw_len) memcpy(bytes + blen, rec->raw, rec->raw_len);
  blen += rec->raw_len;
  p->field0 = b->nfields;
  p->nfields = nf;
  /* A field inside the raw bytes (an unquoted one, or a quoted one the reader
   * hands out in place) is kept as a position in their copy; the others
   * (copied out of them without their quotes or escapes) are copied. */
  const uintptr_t raw0 = (uintptr_t)rec->raw, raw1 = raw0 + rec->raw_len;
  hfg_field *out = b->fields + b->nfields;
  for (size_t i = 0; i < nf; i++) {
    const uintptr_t f0 = (uintptr_t)in[i].p;
    const size_t flen = in[i].len;
    if (in[i].p && f0 >= raw0 && f0 <= raw1 && flen <= raw1 - f0) {
      out[i] = (hfg_field){AS_OFFSET(raw_off + (size_t)(f0 - raw0)), flen, in[i].is_null};
      continue;
    }
    if (flen > b->bytes.cap - blen) {
      b->bytes.len = blen;
      if (hfg_buf_reserve(&b->bytes, flen)) return HFG_ENOMEM; /* fields not yet counted */
      bytes = b->bytes.p;
    }
    out[i] = (hfg_field){AS_OFFSET(blen), flen, in[i].is_null};
    if (flen) memcpy(bytes + blen, in[i].p, flen);
    blen += flen;
  }
  b->bytes.len = blen;
  p->reason_off = SIZE_MAX;
  if (rec->reason) {
    p->reason_off = b->bytes.len;
    if (hfg_buf_append(&b->bytes, rec->reason, strlen(rec->reason) + 1)) return HFG_ENOMEM;
  }
  /* only whole records' fields get their pointers */
  b->nfields += nf;
  b->nrecs++;
  return 0;
}

static void *reading_thread(void *arg) {
  hfg_record_pump *p = arg;
  int ended = 0;
  while (!ended) {
    pthread_mutex_lock(&p->mu);
    while (p->full[p->produce] && !atomic_load(&p->stop)) pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
    if (atomic_load(&p->stop)) break;
    batch *b = &p->b[p->produce];
    hfg_buf_reset(&b->bytes);
    hfg_buf_trim(&b->bytes, 2 * BATCH_BYTES); /* after a long record */
    b->nrecs = b->nfields = 0;
    b->last = 0;
    while (b->nrecs < BATCH_RECORDS && b->bytes.len < BATCH_BYTES) {
      hfg_record rec;
      int rc = hfg_record_reader_next(p->r, &rec);
      if (rc != 1 && rc != HFG_EPARSE) {
        /* end of input or a fatal error: a record carrying rc ends the stream */
        b->recs[b->nrecs++] = (prec){rc, NULL, 0, 0, 0, 0, 0, SIZE_MAX};
        b->last = ended = 1;
        break;
      }
      if (batch_add(b, &rec, rc)) {
        b->recs[b->nrecs++] = (prec){HFG_ENOMEM, NULL, 0, 0, 0, 0, 0, SIZE_MAX};
        b->last = ended = 1;
        break;
      }
    }
    for (size_t i = 0; i < b->nfields; i++)
      b->fields[i].p = (const char *)b->bytes.p + (uintptr_t)b->fields[i].p;
    atomic_store(&p->bytes_read, hfg_record_reader_bytes_read(p->r));
    pthread_mutex_lock(&p->mu);
    p->full[p->produce] = 1;
    p->produce = (p->produce + 1) % NBATCH;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
  }
  return NULL;
}

hfg_record_pump *hfg_record_pump_start(hfg_record_reader *r) {
  hfg_record_pump *p = hfg_calloc(1, sizeof *p);
  if (!p) return NULL;
  p->r = r;
  for (int i = 0; i < NBATCH; i++) {
    p->b[i].recs = hfg_calloc(BATCH_RECORDS + 1, sizeof *p->b[i].recs);
    if (!p->b[i].recs || hfg_buf_reserve(&p->b[i].bytes, BATCH_BYTES + 4096)) goto fail;
  }
  if (pthread_mutex_init(&p->mu, NULL)) goto fail;
  if (pthread_cond_init(&p->cv, NULL)) {
    pthread_mutex_destroy(&p->mu);
    goto fail;
  }
  if (pthread_create(&p->thread, NULL, reading_thread, p)) {
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    goto fail;
  }
  return p;
fail:
  for (int i = 0; i < NBATCH; i++) {
    hfg_free(p->b[i].recs);
    hfg_buf_free(&p->b[i].bytes);
  }
  hfg_free(p);
  return NULL;
}

int hfg_record_pump_next(hfg_record_pump *p, hfg_record *rec) {
  if (p->done) return p->final;
  if (p->holding && p->cur == p->b[p->consume].nrecs) {
    /* hand the finished batch back */
    pthread_mutex_lock(&p->mu);
    p->full[p->consume] = 0;
    p->consume = (p->consume + 1) % NBATCH;
    p->holding = 0;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
  }
  if (!p->holding) {
    pthread_mutex_lock(&p->mu);
    while (!p->full[p->consume]) pthread_cond_wait(&p->cv, &p->mu);
    pthread_mutex_unlock(&p->mu);
    p->holding = 1;
    p->cur = 0;
  }
  batch *b = &p->b[p->consume];
  const prec *r = &b->recs[p->cur++];
  if (r->rc == 0 || (r->rc < 0 && r->rc != HFG_EPARSE)) {
    p->done = 1;
    p->final = r->rc;
    return r->rc;
  }
  rec->fields = b->fields + r->field0;
  rec->nfields = r->nfields;
  rec->file = r->file;
  rec->line = r->line;
  rec->raw = (const char *)b->bytes.p + r->raw_off;
  rec->raw_len = r->raw_len;
  rec->reason = r->reason_off == SIZE_MAX ? NULL : (const char *)b->bytes.p + r->reason_off;
  return r->rc;
}

uint64_t hfg_record_pump_bytes_read(const hfg_record_pump *p) {
  return atomic_load(&((hfg_record_pump *)p)->bytes_read);
}

void hfg_record_pump_stop(hfg_record_pump *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  atomic_store(&p->stop, 1);
  pthread_cond_broadcast(&p->cv);
  pthread_mutex_unlock(&p->mu);
  pthread_join(p->thread, NULL);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  for (int i = 0; i < NBATCH; i++) {
    hfg_free(p->b[i].recs);
    hfg_free(p->b[i].fields);
    hfg_buf_free(&p->b[i].bytes);
  }
  hfg_free(p);
}
