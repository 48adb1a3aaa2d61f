package hfilegen.interop;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.KeyValue.Type;
import org.apache.hadoop.hbase.io.compress.Compression.Algorithm;
import org.apache.hadoop.hbase.regionserver.BloomType;

/**
 * {@code WriteBulkCase DIR}: bulk-load cases made of HBase-written HFiles, so BulkLoadCheck is
 * exercised before hfilegen exists. {@code DIR/selftest_aligned} has one file per region per
 * family (and must pass); {@code DIR/selftest_crossing} has a file spanning all regions and an
 * {@code expect_fail} marker (HBase must refuse it, since splitting is disabled).
 */
public final class WriteBulkCase {
  private static final int ROWS = 900;
  private static final int[] REGION_START = { 0, 300, 600, ROWS };

  private WriteBulkCase() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: WriteBulkCase DIR");
      System.exit(2);
    }
    Configuration conf = HBaseConfiguration.create();
    Path base = Paths.get(args[0]);
    write(conf, base.resolve("selftest_aligned"), Variant.ALIGNED);
    write(conf, base.resolve("selftest_crossing"), Variant.CROSSING);
    write(conf, base.resolve("selftest_badchecksum"), Variant.BAD_CHECKSUM);
    System.out.println("wrote bulk-load cases selftest_aligned, selftest_crossing, "
      + "selftest_badchecksum in " + base);
  }

  private enum Variant {
    /** One file per region per family: must load and read back exactly. */
    ALIGNED,
    /** A cf1 file spans every region: HBase must refuse it (splitting is disabled). */
    CROSSING,
    /** One stored checksum of a cf1 data block is wrong: the region server must notice. */
    BAD_CHECKSUM
  }

  private static void write(Configuration conf, Path dir, Variant v) throws Exception {
    boolean crossing = v == Variant.CROSSING;
    Path out = dir.resolve("out");
    Files.createDirectories(out);
    RefWriter.Spec cf1 = new RefWriter.Spec().family("cf1").codec(Algorithm.GZ)
      .bloom(BloomType.ROW).blockSize(8192);
    RefWriter.Spec cf2 = new RefWriter.Spec().family("cf2").codec(Algorithm.SNAPPY)
      .bloom(BloomType.ROWCOL).blockSize(16384);
    RefWriter.Spec cf3 = new RefWriter.Spec().family("cf3").zstd("hbase").blockSize(65536);
    List<TsvCell> all = new ArrayList<>();

    // cf1: one file per region (or, when crossing, one file over every region)
    if (crossing) {
      all.addAll(hfile(conf, out, cf1, "cf1-all", Cells.grid("cf1", 0, ROWS, 2, 5, 40, 21)));
    } else {
      for (int r = 0; r < 3; r++) {
        all.addAll(hfile(conf, out, cf1, "cf1-" + r, Cells.grid("cf1", REGION_START[r],
          REGION_START[r + 1] - REGION_START[r], 2, 5, 40, 21 + r)));
      }
    }
    // cf2: regions 0 and 2 only
    for (int r : new int[] { 0, 2 }) {
      all.addAll(hfile(conf, out, cf2, "cf2-" + r, Cells.grid("cf2", REGION_START[r],
        REGION_START[r + 1] - REGION_START[r], 1, 0, 20, 31 + r)));
    }
    // cf3: region 1 only, with delete markers
    List<TsvCell> c3 = new ArrayList<>(Cells.grid("cf3", 300, 300, 3, 5, 30, 41));
    for (int row = 300; row < 600; row += 7) {
      c3.add(new TsvCell(Cells.row(row), Cells.b("cf3"), Cells.b("q001"), Cells.TS + 5000,
        Type.DeleteColumn, new byte[0], null));
    }
    for (int row = 301; row < 600; row += 50) {
      c3.add(new TsvCell(Cells.row(row), Cells.b("cf3"), new byte[0], Cells.TS + 6000,
        Type.DeleteFamily, new byte[0], null));
    }
    all.addAll(hfile(conf, out, cf3, "cf3-1", RefWriter.sorted(c3)));

    Files.write(out.resolve("_SUCCESS"), new byte[0]);
    Files.write(out.resolve("manifest.json"),
      "{\"note\": \"ignored by HBase\"}\n".getBytes(StandardCharsets.UTF_8));
    Files.write(dir.resolve("splits.txt"), (Esc.encode(Cells.row(300)) + "\n"
      + Esc.encode(Cells.row(600)) + "\n").getBytes(StandardCharsets.US_ASCII));
    Files.write(dir.resolve("table.props"), String.join("\n", "families=cf1,cf2,cf3",
      "cf1.codec=gz", "cf1.bloom=ROW", "cf1.block_size=8192",
      "cf2.codec=snappy", "cf2.bloom=ROWCOL", "cf2.block_size=16384",
      "cf3.codec=zstd", "cf3.zstd_framing=hbase", "cf3.bloom=NONE", "cf3.block_size=65536", "")
      .getBytes(StandardCharsets.UTF_8));
    TsvCell.writeAll(dir.resolve("expected.tsv"), RefWriter.sorted(all));
    StringBuilder gets = new StringBuilder();
    for (int row : new int[] { 0, 1, 299, 300, 301, 450, 599, 600, 777, 899 }) {
      gets.append(Esc.encode(Cells.row(row))).append('\n');
    }
    Files.write(dir.resolve("gets.txt"), gets.toString().getBytes(StandardCharsets.US_ASCII));
    if (crossing) {
      Files.write(dir.resolve("expect_fail"),
        "fail.if.need.split.hfile".getBytes(StandardCharsets.UTF_8));
    }
    if (v == Variant.BAD_CHECKSUM) {
      // flip the last checksum byte of the first block of the first cf1 file; the data stay right
      Path f;
      try (java.util.stream.Stream<Path> s = Files.list(out.resolve("cf1"))) {
        f = s.sorted().findFirst().get();
      }
      byte[] b = Files.readAllBytes(f);
      int onDiskSizeWithoutHeader = java.nio.ByteBuffer.wrap(b).getInt(8);
      b[33 + onDiskSizeWithoutHeader - 1] ^= 0x01;
      Files.write(f, b);
      Files.write(dir.resolve("expect_fail"), "checksum".getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Writes one HFile under out/FAMILY/ with an HFileOutputFormat2-style (hex) name. */
  private static List<TsvCell> hfile(Configuration conf, Path out, RefWriter.Spec s, String tag,
    List<TsvCell> cells) throws Exception {
    Path famDir = out.resolve(s.family);
    Files.createDirectories(famDir);
    byte[] h = MessageDigest.getInstance("MD5").digest(tag.getBytes(StandardCharsets.UTF_8));
    StringBuilder name = new StringBuilder();
    for (byte b : h) {
      name.append(String.format("%02x", b));
    }
    RefWriter.writeHFile(conf, famDir.resolve(name.toString()), s, cells);
    return cells;
  }
}
