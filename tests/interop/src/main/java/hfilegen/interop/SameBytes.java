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
import org.apache.hadoop.hbase.io.hfile.HFileInternals;
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
        } catch (Exception e) {
          System.out.println("FAIL same bytes as HBase " + f + ": " + e.getMessage());
          fail++;
        }
      }
    }
    System.out.println(pass + " passed, " + fail + " failed");
    System.exit(fail == 0 ? 0 : 1);
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
    s.bloomPrefixLength = Integer.parseInt(p.get("bloom_param", "0").trim());
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
          if (type.equals("FILEINF2") && mineType.equals("FILEINF2")) {
            return fileInfoOnly(conf, fs, mine, theirs, a, b, off) + " " + s.encoding + " "
              + s.codec.getName() + " " + s.bloom;
          }
          String msg = "block at offset " + off + " differs: HBase wrote " + type + " of " + len
            + " bytes, hfilegen " + mineType + "; first differing byte at " + d + " (block byte "
            + (d - off) + ")" + payloadNote(conf, fs, mine, theirs, off);
          throw new Exception(msg);
        }
      }
      throw new Exception("the trailer differs (files of " + a.length + " and " + b.length
        + " bytes)");
    } finally {
      Files.deleteIfExists(theirs);
    }
  }

  /**
   * File info keys HBase 2.6 writes and 2.5 does not (HStoreFile.HISTORICAL_KEY,
   * HFileWriterImpl's biggest-cell keys): hfilegen writes them for every version.
   */
  static final java.util.Set<String> NEWER_FILE_INFO_KEYS = java.util.Set.of("HISTORICAL",
    "hfile.KEY_OF_BIGGEST_CELL", "hfile.LEN_OF_BIGGEST_CELL");

  /**
   * Everything before the file info is byte-identical; the file info differs. Passes when every
   * entry HBase wrote is in hfilegen's with the same value, hfilegen's others are only
   * NEWER_FILE_INFO_KEYS, the blocks after it have identical uncompressed bytes and the trailers
   * agree but for the sizes the file info changes.
   */
  private static String fileInfoOnly(Configuration conf, FileSystem fs, Path mine, Path theirs,
    byte[] a, byte[] b, int off) throws Exception {
    org.apache.hadoop.fs.Path pa = new org.apache.hadoop.fs.Path(mine.toAbsolutePath().toUri());
    org.apache.hadoop.fs.Path pb = new org.apache.hadoop.fs.Path(theirs.toAbsolutePath().toUri());
    try (HFile.Reader ra = HFile.createReader(fs, pa, CacheConfig.DISABLED, true, conf);
      HFile.Reader rb = HFile.createReader(fs, pb, CacheConfig.DISABLED, true, conf)) {
      HFileInfo ia = ra.getHFileInfo();
      HFileInfo ib = rb.getHFileInfo();
      List<String> extra = new ArrayList<>();
      for (java.util.Map.Entry<byte[], byte[]> e : ib.entrySet()) {
        byte[] v = ia.get(e.getKey());
        if (v == null || !java.util.Arrays.equals(v, e.getValue())) {
          throw new Exception("file info " + Bytes.toStringBinary(e.getKey()) + ": HBase wrote "
            + Bytes.toStringBinary(e.getValue()) + ", hfilegen "
            + (v == null ? "nothing" : Bytes.toStringBinary(v)));
        }
      }
      for (java.util.Map.Entry<byte[], byte[]> e : ia.entrySet()) {
        if (ib.get(e.getKey()) == null) {
          String k = Bytes.toString(e.getKey());
          if (!NEWER_FILE_INFO_KEYS.contains(k)) {
            throw new Exception("file info " + k + ": hfilegen writes it, HBase does not");
          }
          extra.add(k);
        }
      }
      // the blocks after the file info, in order: identical uncompressed bytes
      List<long[]> ba = blocks(a);
      List<long[]> bb = blocks(b);
      int ka = 0;
      int kb = 0;
      while (ka < ba.size() - 1 && ba.get(ka)[0] <= off) {
        ka++;
      }
      while (kb < bb.size() - 1 && bb.get(kb)[0] <= off) {
        kb++;
      }
      if (ba.size() - ka != bb.size() - kb) {
        throw new Exception("a different number of blocks after the file info");
      }
      for (; ka < ba.size() - 1; ka++, kb++) {
        byte[] x = unpacked(conf, fs, mine, ba.get(ka)[0]);
        byte[] y = unpacked(conf, fs, theirs, bb.get(kb)[0]);
        if (!java.util.Arrays.equals(x, y)) {
          throw new Exception("the block after the file info at offset " + ba.get(ka)[0]
            + " differs from HBase's at " + bb.get(kb)[0]);
        }
      }
      org.apache.hadoop.hbase.io.hfile.FixedFileTrailer ta = ra.getTrailer();
      org.apache.hadoop.hbase.io.hfile.FixedFileTrailer tb = rb.getTrailer();
      String[][] f = {
        {"fileInfoOffset", "" + ta.getFileInfoOffset(), "" + tb.getFileInfoOffset()},
        {"loadOnOpenDataOffset", "" + ta.getLoadOnOpenDataOffset(), "" + tb.getLoadOnOpenDataOffset()},
        {"dataIndexCount", "" + ta.getDataIndexCount(), "" + tb.getDataIndexCount()},
        {"entryCount", "" + ta.getEntryCount(), "" + tb.getEntryCount()},
        {"numDataIndexLevels", "" + ta.getNumDataIndexLevels(), "" + tb.getNumDataIndexLevels()},
        {"firstDataBlockOffset", "" + ta.getFirstDataBlockOffset(), "" + tb.getFirstDataBlockOffset()},
        {"lastDataBlockOffset", "" + ta.getLastDataBlockOffset(), "" + tb.getLastDataBlockOffset()},
        {"uncompressedDataIndexSize", "" + ta.getUncompressedDataIndexSize(),
          "" + tb.getUncompressedDataIndexSize()},
        {"compressionCodec", "" + ta.getCompressionCodec(), "" + tb.getCompressionCodec()},
        {"comparator", ta.getComparatorClassName(), tb.getComparatorClassName()}};
      for (String[] x : f) {
        if (!x[1].equals(x[2])) {
          throw new Exception("trailer " + x[0] + " is " + x[1] + ", HBase wrote " + x[2]);
        }
      }
      return "every block before the file info byte-identical; file info equal but for "
        + extra + " (keys HBase 2.6 writes); later blocks and the trailer equal";
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
      HFileBlock b = HFileInternals.readBlock(r, off);
      HFileBlock u = HFileInternals.unpack(r, b);
      byte[] out = new byte[u.getUncompressedSizeWithoutHeader()];
      u.getBufferWithoutHeader().get(0, out, 0, out.length);
      return out;
    }
  }
}
