package hfilegen.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.io.compress.Compression.Algorithm;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.ChecksumType;

/**
 * {@code WriteReference OUTDIR}: reference HFiles written by HBase itself, each with its
 * {@code .cells.tsv} and {@code .props}, covering codecs, bloom types, checksums, index depth and
 * awkward cells. ReadCheck must pass all of them (that self-tests the harness), and hfilegen's
 * reader must reproduce their TSV.
 */
public final class WriteReference {
  private WriteReference() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: WriteReference OUTDIR");
      System.exit(2);
    }
    Path out = Paths.get(args[0]);
    Files.createDirectories(out);
    Configuration conf = HBaseConfiguration.create();
    int written = 0;
    int failed = 0;

    Supplier<List<TsvCell>> grid = () -> Cells.grid("f", 0, 3000, 3, 5, 60, 1);
    written += write(conf, out, "none_row_crc32c", spec().bloom(BloomType.ROW).blockSize(8192),
      grid);
    written += write(conf, out, "gz_row_err5pct",
      spec().codec(Algorithm.GZ).bloom(BloomType.ROW).blockSize(8192).errorRate(0.05f), grid);
    written += write(conf, out, "snappy_rowcol",
      spec().codec(Algorithm.SNAPPY).bloom(BloomType.ROWCOL).blockSize(8192), grid);
    written += write(conf, out, "lz4_nobloom", spec().codec(Algorithm.LZ4).blockSize(8192), grid);
    String noZstd = Props.hbaseZstdUnusable();
    if (noZstd == null) {
      written += write(conf, out, "zstd_hbase_row",
        spec().zstd("hbase").bloom(BloomType.ROW).blockSize(8192), grid);
    } else {
      System.out.println("NOTE zstd_hbase_row skipped: " + noZstd);
    }
    if (Props.hadoopNativeZstd()) {
      written += write(conf, out, "zstd_hadoop_row",
        spec().zstd("hadoop").bloom(BloomType.ROW).blockSize(8192), grid);
    } else {
      System.out.println("NOTE zstd_hadoop_row skipped: Hadoop's ZStandardCodec (plain zstd "
        + "frames) needs native libhadoop built with zstd, which this JVM does not have");
    }
    written += write(conf, out, "gz_row_crc32_bpc512",
      spec().codec(Algorithm.GZ).bloom(BloomType.ROW).checksum(ChecksumType.CRC32, 512)
        .blockSize(16384), grid);
    written += write(conf, out, "none_crc32_bpc16k",
      spec().checksum(ChecksumType.CRC32, 16384).blockSize(8192), grid);
    written += write(conf, out, "none_nullchecksum",
      spec().checksum(ChecksumType.NULL, 16384).blockSize(8192), grid);
    written += write(conf, out, "snappy_row_default64k", spec().codec(Algorithm.SNAPPY)
      .bloom(BloomType.ROW), () -> Cells.grid("f", 0, 20000, 1, 20, 200, 2));
    written += write(conf, out, "none_index3_row",
      spec().bloom(BloomType.ROW).blockSize(1024).indexBlockMaxSize(1024),
      () -> Cells.grid("f", 0, 10000, 2, 10, 40, 3));
    written += write(conf, out, "gz_index2",
      spec().codec(Algorithm.GZ).blockSize(2048).indexBlockMaxSize(4096),
      () -> Cells.grid("f", 0, 5000, 2, 10, 40, 4));
    written += write(conf, out, "none_row_multichunk", spec().bloom(BloomType.ROW),
      () -> Cells.grid("f", 0, 130000, 1, 1, 8, 5));
    written += write(conf, out, "snappy_rowcol_multichunk",
      spec().codec(Algorithm.SNAPPY).bloom(BloomType.ROWCOL),
      () -> Cells.grid("f", 0, 70000, 2, 1, 8, 6));
    written += write(conf, out, "none_tags_deletes_row",
      spec().bloom(BloomType.ROW).blockSize(4096), () -> Cells.tagsAndDeletes("f"));
    written += write(conf, out, "snappy_tags_deletes_nobloom",
      spec().codec(Algorithm.SNAPPY).blockSize(4096), () -> Cells.tagsAndDeletes("f"));
    written += write(conf, out, "gz_tags_deletes_rowcol",
      spec().codec(Algorithm.GZ).bloom(BloomType.ROWCOL).blockSize(4096),
      () -> Cells.tagsAndDeletes("f"));
    written += write(conf, out, "none_bigvalue", spec(), () -> Cells.bigValue("f"));
    written += write(conf, out, "gz_bigvalue", spec().codec(Algorithm.GZ),
      () -> Cells.bigValue("f"));
    written += write(conf, out, "snappy_bigvalue", spec().codec(Algorithm.SNAPPY),
      () -> Cells.bigValue("f"));
    written += write(conf, out, "lz4_bigvalue", spec().codec(Algorithm.LZ4),
      () -> Cells.bigValue("f"));
    if (noZstd == null) {
      written += write(conf, out, "zstd_hbase_bigvalue", spec().zstd("hbase"),
        () -> Cells.bigValue("f"));
    } else {
      System.out.println("NOTE zstd_hbase_bigvalue skipped: " + noZstd);
    }
    written += write(conf, out, "none_longrows_rowcol",
      spec().bloom(BloomType.ROWCOL).blockSize(16384), () -> Cells.longRows("f", 300));
    written += write(conf, out, "gz_manyquals_rowcol",
      spec().codec(Algorithm.GZ).bloom(BloomType.ROWCOL).blockSize(16384),
      () -> Cells.grid("f", 0, 30, 600, 0, 20, 8));
    written += write(conf, out, "none_single_cell", spec().bloom(BloomType.ROW),
      () -> Cells.grid("f", 0, 1, 1, 3, 3, 9));
    written += write(conf, out, "lz4_rowcol_family_cf1",
      spec().codec(Algorithm.LZ4).bloom(BloomType.ROWCOL).family("cf1").blockSize(4096),
      () -> Cells.grid("cf1", 0, 2000, 4, 0, 30, 10));
    // data block encodings (issue #14): each one over tags, every delete type and versions,
    // over a plain grid with ROWCOL, and over empty values (FAST_DIFF's "same value")
    for (org.apache.hadoop.hbase.io.encoding.DataBlockEncoding e : List.of(
      org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.PREFIX,
      org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.DIFF,
      org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.FAST_DIFF,
      org.apache.hadoop.hbase.io.encoding.DataBlockEncoding.ROW_INDEX_V1)) {
      String n = e.toString().toLowerCase(java.util.Locale.ROOT);
      written += write(conf, out, "enc_" + n + "_tags_deletes_lz4",
        spec().encoding(e).codec(Algorithm.LZ4).bloom(BloomType.ROW).blockSize(4096),
        () -> Cells.tagsAndDeletes("f"));
      written += write(conf, out, "enc_" + n + "_grid_rowcol_gz",
        spec().encoding(e).codec(Algorithm.GZ).bloom(BloomType.ROWCOL).blockSize(8192), grid);
      written += write(conf, out, "enc_" + n + "_empty_values_none",
        spec().encoding(e).bloom(BloomType.ROW).blockSize(4096),
        () -> Cells.grid("f", 0, 2000, 2, 0, 0, 11));
    }
    // ROWPREFIX_FIXED_LENGTH blooms (issue #14): prefixes shorter and longer than some rows
    RefWriter.Spec rp = spec().codec(Algorithm.LZ4).bloom(BloomType.ROWPREFIX_FIXED_LENGTH)
      .blockSize(8192);
    rp.bloomPrefixLength = 9;
    written += write(conf, out, "rowprefix9_lz4", rp, grid);
    RefWriter.Spec rp2 = spec().encoding(org.apache.hadoop.hbase.io.encoding.DataBlockEncoding
      .FAST_DIFF).bloom(BloomType.ROWPREFIX_FIXED_LENGTH).blockSize(4096);
    rp2.bloomPrefixLength = 40;
    written += write(conf, out, "rowprefix40_fast_diff_tags_deletes", rp2,
      () -> Cells.tagsAndDeletes("f"));
    System.out.println("wrote " + written + " reference HFiles in " + out);
    System.exit(failed);
  }

  private static RefWriter.Spec spec() {
    return new RefWriter.Spec();
  }

  private static int write(Configuration conf, Path out, String name, RefWriter.Spec s,
    Supplier<List<TsvCell>> cells) throws Exception {
    List<TsvCell> cs = cells.get();
    long size = RefWriter.writeSet(conf, out, name, s, cs);
    System.out.println("WROTE " + name + ".hfile (" + cs.size() + " cells, " + size + " bytes)");
    return 1;
  }
}
