/*
 * The end of an HFile (hfile_writer.h's finish): the last data block and its
 * inline blocks, the load-on-open section (root data index, the empty meta
 * index, file info, bloom metas) and the trailer, in HFileWriterImpl.close's
 * order; the file info as StoreFileWriter / HFileOutputFormat2 fill it.
 */
#include <errno.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "format/codec.h"
#include "format/fileinfo.h"
#include "format/hfile_writer_int.h"
#include "format/trailer.h"
#include "util/coding.h"
#include "util/fsio.h"

static int64_t now_ms(void) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  return (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static int put_file_info(hfg_writer *w, hfg_fileinfo *fi) {
  int64_t bulk_ts = w->o.bulkload_timestamp >= 0 ? w->o.bulkload_timestamp : now_ms();
  uint8_t tr[16];
  hfg_put_be64(tr, (uint64_t)w->ts_min);
  hfg_put_be64(tr + 8, (uint64_t)w->ts_max);
  int rc = 0;
  /* HFileOutputFormat2.close */
  rc |= hfg_fileinfo_put_i64(fi, "BULKLOAD_TIMESTAMP", bulk_ts);
  rc |= hfg_fileinfo_put(fi, "BULKLOAD_SOURCE_TASK", w->source_task, strlen(w->source_task));
  rc |= hfg_fileinfo_put_bool(fi, "MAJOR_COMPACTION_KEY", w->o.major_compaction);
  rc |= hfg_fileinfo_put_bool(fi, "EXCLUDE_FROM_MINOR_COMPACTION",
                              w->o.exclude_from_minor_compaction);
  /* StoreFileWriter.appendTrackedTimestampsToMetadata */
  rc |= hfg_fileinfo_put(fi, "TIMERANGE", tr, sizeof tr);
  rc |= hfg_fileinfo_put_i64(fi, "EARLIEST_PUT_TS", w->earliest_put_ts);
  /* StoreFileWriter.close: bloom keys when the bloom has keys, DELETE_FAMILY_COUNT always */
  if (w->bloom && hfg_bloom_writer_key_count(w->bloom) > 0) {
    const char *name = hfg_bloom_type_name(w->o.bloom);
    size_t lk_len;
    const uint8_t *lk = hfg_bloom_writer_last_key(w->bloom, &lk_len);
    rc |= hfg_fileinfo_put(fi, "BLOOM_FILTER_TYPE", name, strlen(name));
    rc |= hfg_fileinfo_put(fi, "LAST_BLOOM_KEY", lk, lk_len);
    /* StoreFileWriter: BLOOM_FILTER_PARAM (BloomFilterUtil.getBloomFilterParam) */
    if (w->o.bloom == HFG_BLOOM_ROWPREFIX)
      rc |= hfg_fileinfo_put_i32(fi, "BLOOM_FILTER_PARAM", (int32_t)w->o.bloom_prefix_length);
  }
  rc |= hfg_fileinfo_put_i64(fi, "DELETE_FAMILY_COUNT", (int64_t)w->delete_family_count);
  /* HStoreFile.HISTORICAL_KEY: StoreFileWriter writes false for every regular store
   * file (seen in files HBase 2.5.13 and 2.6.4 wrote in tests/interop). */
  rc |= hfg_fileinfo_put_bool(fi, "HISTORICAL", 0);
  /* HFileWriterImpl.close (includesMvcc) and finishFileInfo */
  rc |= hfg_fileinfo_put_i64(fi, "MAX_MEMSTORE_TS_KEY", 0);
  rc |= hfg_fileinfo_put_i32(fi, "KEY_VALUE_VERSION", 1);
  if (w->entries) rc |= hfg_fileinfo_put(fi, "hfile.LASTKEY", w->last_key.p, w->last_key.len);
  rc |= hfg_fileinfo_put_i32(fi, "hfile.AVG_KEY_LEN",
                             w->entries ? (int32_t)(w->total_key_len / w->entries) : 0);
  rc |= hfg_fileinfo_put_i64(fi, "hfile.CREATE_TIME_TS", w->o.create_time);
  rc |= hfg_fileinfo_put_i32(fi, "hfile.AVG_VALUE_LEN",
                             w->entries ? (int32_t)(w->total_value_len / w->entries) : 0);
  if (w->biggest_key.len) {
    rc |= hfg_fileinfo_put(fi, "hfile.KEY_OF_BIGGEST_CELL", w->biggest_key.p, w->biggest_key.len);
    rc |= hfg_fileinfo_put_i64(fi, "hfile.LEN_OF_BIGGEST_CELL", (int64_t)w->biggest_cell_len);
  }
  rc |= hfg_fileinfo_put_i32(fi, "hfile.MAX_TAGS_LEN", (int32_t)w->max_tags_len);
  rc |= hfg_fileinfo_put_bool(fi, "hfile.TAGS_COMPRESSED", 0);
  /* HFileDataBlockEncoderImpl.saveMetadata (NoOpDataBlockEncoder writes nothing) */
  if (w->dbe) {
    const char *en = hfg_encoding_hbase_name(w->o.encoding);
    rc |= hfg_fileinfo_put(fi, "DATA_BLOCK_ENCODING", en, strlen(en));
  }
  return rc ? hfg_err_set(&w->err, HFG_ENOMEM, "out of memory building file info") : 0;
}

static int write_bloom_meta(hfg_writer *w, hfg_bloom_writer *b, hfg_block_type type) {
  if (!b || hfg_bloom_writer_key_count(b) == 0) return 0;
  hfg_buf meta = HFG_BUF_INIT;
  int rc = hfg_bloom_writer_meta(b, &meta);
  uint64_t off;
  hfg_block_info info;
  if (rc) rc = hfg_err_set(&w->err, rc, "bloom meta");
  else rc = hfg_w_emit_block(w, type, meta.p, meta.len, &off, &info);
  hfg_buf_free(&meta);
  return rc;
}

int hfg_w_finish_file(hfg_writer *w) {
  int rc = hfg_w_finish_data_block(w);
  if (!rc && w->stream) rc = hfg_w_retire_all(w);
  if (!rc) rc = hfg_w_write_inline_blocks(w, 1);
  if (rc) return rc;

  hfg_trailer t = {0};
  /* Load-on-open: data index root (not counted in total_uncompressed, like
   * the intermediate levels), meta index, file info, bloom metas. */
  w->count_uncompressed = 0;
  rc = hfg_index_writer_finish(w->index, hfg_w_emit_block, w, &t.load_on_open_offset);
  w->count_uncompressed = 1;
  if (rc) return w->err.code ? w->err.code : hfg_err_set(&w->err, rc, "block index");
  uint64_t off;
  hfg_block_info info;
  rc = hfg_w_emit_block(w, HFG_BT_ROOT_INDEX, NULL, 0, &off, &info); /* empty meta index */
  if (rc) return rc;

  hfg_fileinfo fi = HFG_FILEINFO_INIT;
  hfg_buf payload = HFG_BUF_INIT;
  rc = put_file_info(w, &fi);
  if (!rc && hfg_fileinfo_encode(&fi, &payload))
    rc = hfg_err_set(&w->err, HFG_ENOMEM, "out of memory encoding file info");
  t.file_info_offset = w->pos;
  if (!rc) rc = hfg_w_emit_block(w, HFG_BT_FILE_INFO, payload.p, payload.len, &off, &info);
  hfg_fileinfo_free(&fi);
  hfg_buf_free(&payload);
  if (!rc) rc = write_bloom_meta(w, w->bloom, HFG_BT_GENERAL_BLOOM_META);
  if (!rc) rc = write_bloom_meta(w, w->df_bloom, HFG_BT_DELETE_FAMILY_BLOOM_META);
  if (rc) return rc;

  t.uncompressed_data_index_size = hfg_index_writer_uncompressed_size(w->index);
  t.total_uncompressed_bytes = w->total_uncompressed + HFG_TRAILER_SIZE;
  t.data_index_count = hfg_index_writer_root_count(w->index);
  t.meta_index_count = 0;
  t.entry_count = w->entries;
  t.num_data_index_levels = hfg_index_writer_levels(w->index);
  t.first_data_block_offset = w->first_data_block_offset;
  t.last_data_block_offset = w->last_data_block_offset;
  t.compression_codec = (uint32_t)hfg_codec_hbase_ordinal(w->o.codec);
  hfg_buf_reset(&w->out);
  if (hfg_trailer_encode(&t, &w->out))
    return hfg_err_set(&w->err, HFG_ENOMEM, "trailer encoding");
  rc = hfg_w_sink_write(w, w->out.p, w->out.len);
  if (!rc) rc = hfg_w_sink_flush(w);
  if (rc) return rc;

  if (w->fd >= 0) {
    if (w->o.fsync && (rc = hfg_io_fsync(w->fd)) != 0)
      return hfg_err_set(&w->err, rc == -ENOSPC ? HFG_ENOSPC : HFG_EIO, "%s: fsync: %s", w->path,
                         strerror(-rc));
    int fd = w->fd;
    w->fd = -1;
    if (close(fd))
      return hfg_err_set(&w->err, HFG_EIO, "%s: close: %s", w->path, strerror(errno));
  }
  return 0;
}

