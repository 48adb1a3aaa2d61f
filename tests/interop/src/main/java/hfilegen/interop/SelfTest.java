package hfilegen.interop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.io.hfile.BlockType;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileBlock;
import org.apache.hadoop.hbase.io.hfile.HFileInternals;
import org.apache.hadoop.hbase.util.ChecksumType;
import org.apache.hadoop.io.WritableUtils;

/**
 * {@code SelfTest REFDIR OUTDIR}: proves ReadCheck can fail. Copies reference files written by
 * WriteReference, damages each copy in one known way, and requires ReadCheck to report FAIL with
 * the expected reason. Raw byte flips must be caught by the explicit checksum check; flips whose
 * checksums were recomputed with HBase's generator must be caught by the semantic checks.
 */
public final class SelfTest {
  private static final int HDR = 33;

  /** A block as HBase's block reader sees it. */
  private static final class Blk {
    final long off;
    final BlockType type;
    final int dataSizeWithHeader;

    Blk(long off, BlockType type, int dataSizeWithHeader) {
      this.off = off;
      this.type = type;
      this.dataSizeWithHeader = dataSizeWithHeader;
    }
  }

  private interface Damage {
    /** Changes the file bytes (and/or the expectations) in place. */
    void apply(byte[] file, List<Blk> blocks, Path copy) throws IOException;
  }

  private static Configuration conf;
  private static int passed;
  private static int failed;

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: SelfTest REFDIR OUTDIR");
      System.exit(2);
    }
    Path ref = Paths.get(args[0]);
    Path out = Paths.get(args[1]);
    Files.createDirectories(out);
    conf = HBaseConfiguration.create();
    String flat = "none_row_crc32c"; // NONE codec, one index level, ROW bloom
    String deep = "none_index3_row"; // NONE codec, three index levels

    run(ref, out, flat, "data_payload_flip", "checksum mismatch (block at offset", (f, b, p) -> {
      Blk d = nth(b, BlockType.DATA, 1);
      flip(f, d.off + HDR + 20);
    });
    run(ref, out, flat, "root_index_key_flip", "checksum mismatch (block at offset", (f, b, p) -> {
      Blk r = nth(b, BlockType.ROOT_INDEX, 0);
      flip(f, rootKeyStart(f, r, 0) + 3);
    });
    run(ref, out, deep, "leaf_index_key_flip", "checksum mismatch (block at offset", (f, b, p) -> {
      Blk l = nth(b, BlockType.LEAF_INDEX, 0);
      int pos = (int) l.off + HDR;
      int n = ByteBuffer.wrap(f).getInt(pos);
      flip(f, pos + 4 + 4 * (n + 1) + 12 + 5);
    });
    run(ref, out, flat, "data_value_flip_rechecksummed", "cell value differs", (f, b, p) -> {
      Blk d = nth(b, BlockType.DATA, 1);
      int cell = (int) d.off + HDR;
      int keyLen = ByteBuffer.wrap(f).getInt(cell);
      flip(f, cell + 8 + keyLen);
      rechecksum(f, d);
    });
    run(ref, out, flat, "first_index_key_rechecksummed", "first key", (f, b, p) -> {
      Blk r = nth(b, BlockType.ROOT_INDEX, 0);
      flip(f, rootKeyStart(f, r, 0) + 2);
      rechecksum(f, r);
    });
    run(ref, out, flat, "middle_index_key_rechecksummed", "seek", (f, b, p) -> {
      Blk r = nth(b, BlockType.ROOT_INDEX, 0);
      int k = rootKeyStart(f, r, 30);
      int rowLen = ByteBuffer.wrap(f).getShort(k);
      f[k + 2 + rowLen - 1]++; // the stored key now sorts after the block's first key
      rechecksum(f, r);
    });
    run(ref, out, flat, "bloom_chunk_zeroed_rechecksummed", "bloom denies", (f, b, p) -> {
      Blk c = nth(b, BlockType.BLOOM_CHUNK, 0);
      for (int i = (int) c.off + HDR; i < c.off + c.dataSizeWithHeader; i++) {
        f[i] = 0;
      }
      rechecksum(f, c);
    });
    run(ref, out, flat, "tsv_value_changed", "cell value differs", (f, b, p) -> {
      Path tsv = ReadCheck.sibling(p, ".cells.tsv");
      List<String> lines = Files.readAllLines(tsv, StandardCharsets.US_ASCII);
      String[] x = lines.get(4321).split("\t", -1);
      x[5] = x[5] + "!";
      lines.set(4321, String.join("\t", x));
      Files.write(tsv, lines, StandardCharsets.US_ASCII);
    });
    run(ref, out, flat, "props_checksum_type_wrong", "checksum type", (f, b, p) -> {
      Path props = ReadCheck.sibling(p, ".props");
      String s = new String(Files.readAllBytes(props), StandardCharsets.UTF_8);
      Files.write(props, s.replace("checksum=CRC32C", "checksum=CRC32")
        .getBytes(StandardCharsets.UTF_8));
    });
    System.out.println(passed + " passed, " + failed + " failed");
    System.exit(failed > 0 ? 1 : 0);
  }

  private static void run(Path ref, Path out, String base, String name, String wantInFailure,
    Damage damage) {
    String label = "selftest:" + name + " (" + base + ")";
    try {
      Path src = ref.resolve(base + ".hfile");
      Path copy = out.resolve(name + ".hfile");
      Files.copy(src, copy, StandardCopyOption.REPLACE_EXISTING);
      Files.copy(ReadCheck.sibling(src, ".cells.tsv"), ReadCheck.sibling(copy, ".cells.tsv"),
        StandardCopyOption.REPLACE_EXISTING);
      Files.copy(ReadCheck.sibling(src, ".props"), ReadCheck.sibling(copy, ".props"),
        StandardCopyOption.REPLACE_EXISTING);
      byte[] f = Files.readAllBytes(copy);
      damage.apply(f, blocks(src), copy);
      Files.write(copy, f);
      String msg;
      try {
        ReadCheck.check(conf, copy);
        msg = null;
      } catch (Fail e) {
        msg = e.getMessage();
      }
      if (msg == null) {
        System.out.println("FAIL " + label + ": ReadCheck passed a damaged file");
        failed++;
      } else if (!msg.contains(wantInFailure)) {
        System.out.println("FAIL " + label + ": ReadCheck failed for another reason than '"
          + wantInFailure + "': " + msg);
        failed++;
      } else {
        System.out.println("PASS " + label + ": ReadCheck reported FAIL " + msg);
        passed++;
      }
    } catch (Throwable t) {
      System.out.println("FAIL " + label + ": self-test error : " + Fail.describe(t));
      failed++;
    }
  }

  /** Every block of the file, walked with HBase's block reader. */
  private static List<Blk> blocks(Path file) throws IOException {
    FileSystem fs = FileSystem.getLocal(conf).getRawFileSystem();
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri());
    List<Blk> out = new ArrayList<>();
    try (HFile.Reader r = HFile.createReader(fs, p, CacheConfig.DISABLED, true, conf)) {
      long end = Files.size(file) - r.getTrailer().getTrailerSize();
      for (long off = 0; off < end;) {
        HFileBlock b = HFileInternals.readBlock(r, off);
        out.add(new Blk(off, b.getBlockType(), HFileInternals.onDiskDataSizeWithHeader(b)));
        off += b.getOnDiskSizeWithHeader();
        b.release();
      }
    }
    return out;
  }

  private static Blk nth(List<Blk> blocks, BlockType t, int n) {
    for (Blk b : blocks) {
      if (b.type == t && n-- == 0) {
        return b;
      }
    }
    throw new IllegalStateException("reference file has no " + t + " block #" + n);
  }

  /** File position of the key of entry {@code k} of a root index block (uncompressed). */
  private static int rootKeyStart(byte[] f, Blk root, int k) {
    int pos = (int) root.off + HDR;
    for (int i = 0;; i++) {
      pos += 12; // block offset (8) + on-disk size (4)
      int vlen = WritableUtils.decodeVIntSize(f[pos]);
      long keyLen = vlen == 1 ? f[pos] : readVLong(f, pos);
      if (i == k) {
        return pos + vlen;
      }
      pos += vlen + (int) keyLen;
    }
  }

  private static long readVLong(byte[] f, int pos) {
    int n = WritableUtils.decodeVIntSize(f[pos]);
    long v = 0;
    for (int i = 1; i < n; i++) {
      v = (v << 8) | (f[pos + i] & 0xff);
    }
    return WritableUtils.isNegativeVInt(f[pos]) ? ~v : v;
  }

  private static void flip(byte[] f, long pos) {
    f[(int) pos] ^= 0x01;
  }

  private static void rechecksum(byte[] f, Blk b) throws IOException {
    ByteBuffer h = ByteBuffer.wrap(f);
    ChecksumType t = ChecksumType.codeToType(h.get((int) b.off + 24));
    int bpc = h.getInt((int) b.off + 25);
    HFileInternals.regenerateChecksums(f, (int) b.off, b.dataSizeWithHeader, t, bpc);
  }
}
