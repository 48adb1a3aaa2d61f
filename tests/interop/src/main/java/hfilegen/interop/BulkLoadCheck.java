package hfilegen.interop;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.regionserver.HStore;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code BulkLoadCheck CASE_DIR...}: bulk-loads each case into its own pre-split table on one
 * in-process HBase mini cluster (1 master, 1 region server, 1 datanode) with HBase's
 * BulkLoadHFilesTool, then checks file placement per region and family, a raw full scan against
 * {@code expected.tsv}, the Gets of {@code gets.txt}, and that the region server saw no HBase
 * checksum failure. A case dir holding an {@code expect_fail} file (harness self-tests only) must
 * fail with a message containing that file's text.
 */
public final class BulkLoadCheck {
  private static final byte[][] NO_SPLITS = new byte[0][];
  /** The real stdout, for the report; System.out is pointed at stderr while HBase runs. */
  private static final PrintStream OUT = System.out;

  private BulkLoadCheck() {
  }

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println("usage: BulkLoadCheck CASE_DIR...");
      System.exit(2);
    }
    System.setOut(System.err); // HBase prints thread dumps etc. on stdout; keep it for the report
    String given = System.getProperty("bulkcheck.dir");
    Path base = Paths.get(given != null ? given
      : System.getProperty("java.io.tmpdir") + "/hfilegen-minicluster-" + ProcessHandle.current()
        .pid());
    Files.createDirectories(base);
    Configuration conf = MiniConf.create(base);
    conf.setBoolean("hbase.regionserver.checksum.verify", true);
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    int passed = 0;
    int failed = 0;
    long t0 = System.nanoTime();
    try {
      util.startMiniCluster(StartMiniClusterOption.builder().numMasters(1).numRegionServers(1)
        .numDataNodes(1).build());
    } catch (Throwable t) {
      OUT.println("FAIL mini cluster: could not start : " + Fail.describe(t));
      OUT.println("0 passed, " + args.length + " failed");
      System.exit(1);
    }
    OUT.printf("NOTE mini cluster up in %.1fs%n", (System.nanoTime() - t0) / 1e9);
    int n = 0;
    for (String c : args) {
      Path dir = Paths.get(c);
      Path marker = dir.resolve("expect_fail");
      String expectFail = Files.exists(marker)
        ? new String(Files.readAllBytes(marker), StandardCharsets.UTF_8).trim() : null;
      long t1 = System.nanoTime();
      String msg = null;
      String summary = null;
      try {
        summary = checkCase(util, dir, ++n);
      } catch (ReadCheck.Skip s) {
        OUT.println("SKIP " + dir + ": " + s.getMessage());
        continue;
      } catch (Fail e) {
        msg = e.getMessage();
      } catch (Throwable t) {
        msg = "unexpected error : " + Fail.describe(t);
      }
      String secs = String.format("%.1fs", (System.nanoTime() - t1) / 1e9);
      if (expectFail == null) {
        if (msg == null) {
          OUT.println("PASS " + dir + " (" + summary + ", " + secs + ")");
          passed++;
        } else {
          OUT.println("FAIL " + dir + ": " + msg);
          failed++;
        }
      } else if (msg != null && msg.contains(expectFail)) {
        OUT.println("PASS " + dir + " (failed as the case expects: " + msg + ")");
        passed++;
      } else {
        OUT.println("FAIL " + dir + ": expected a failure containing '" + expectFail
          + "' : " + (msg == null ? "the case passed" : msg));
        failed++;
      }
      OUT.flush();
    }
    long t2 = System.nanoTime();
    try {
      util.shutdownMiniCluster();
    } catch (Throwable t) {
      OUT.println("NOTE mini cluster shutdown: " + Fail.describe(t));
    }
    OUT.printf("NOTE mini cluster shutdown took %.1fs%n", (System.nanoTime() - t2) / 1e9);
    if (given == null) {
      FileUtil.fullyDelete(base.toFile());
    }
    OUT.println(passed + " passed, " + failed + " failed");
    System.exit(failed > 0 ? 1 : 0);
  }

  private static final class Family {
    String name;
    Compression.Algorithm codec;
    BloomType bloom;
    int blockSize;
    String zstdFraming;
    org.apache.hadoop.hbase.io.encoding.DataBlockEncoding encoding;
    String bloomParam; // ROWPREFIX_FIXED_LENGTH: the prefix length
  }

  /**
   * Every block's HBase checksum, validated with HBase's own ChecksumUtil before the load: a
   * region server that finds a bad checksum only logs a warning and re-reads with HDFS
   * checksums (and whether it counts the failure differs between 2.5 and 2.6), so the load
   * itself cannot be trusted to reveal one. Blocks are walked from offset 0 to the trailer by
   * their headers' on-disk sizes, as HBase's prefetch walks them.
   */
  private static void checkAllBlockChecksums(Path p, String what) throws Exception {
    byte[] raw = Files.readAllBytes(p);
    long end = (long) raw.length - 4096;
    long off = 0;
    while (off < end) {
      if (off + 33 > end) {
        throw new Fail("block layout of " + what, Fail.block(off), "a block header runs into the "
          + "trailer");
      }
      int onDiskWithoutHeader = java.nio.ByteBuffer.wrap(raw, (int) off + 8, 4).getInt();
      long size = 33L + onDiskWithoutHeader;
      if (onDiskWithoutHeader < 0 || off + size > end) {
        throw new Fail("block layout of " + what, Fail.block(off), "block size " + size
          + " runs past the trailer");
      }
      byte[] block = Arrays.copyOfRange(raw, (int) off, (int) (off + size));
      if (!org.apache.hadoop.hbase.io.hfile.HFileInternals.checksumValid(block, p.toString(), off)) {
        throw new Fail("checksum mismatch in " + what, Fail.block(off),
          "ChecksumUtil.validateChecksum rejected this block");
      }
      off += size;
    }
  }

  private static String checkCase(HBaseTestingUtility util, Path dir, int n) throws Exception {
    // --- inputs
    List<Family> families = new ArrayList<>();
    byte[][] splits;
    List<TsvCell> expected;
    List<byte[]> gets;
    try {
      Props tp = new Props(dir.resolve("table.props"));
      for (String f : tp.require("families").split(",")) {
        Family fam = new Family();
        fam.name = f.trim();
        fam.codec = Props.codec(tp.get(fam.name + ".codec", "none"));
        fam.bloom = Props.bloom(tp.get(fam.name + ".bloom", "NONE"));
        fam.blockSize = Integer.parseInt(tp.get(fam.name + ".block_size", "65536").trim());
        fam.zstdFraming = tp.get(fam.name + ".zstd_framing", tp.get("zstd_framing"));
        fam.encoding = Props.encoding(tp.get(fam.name + ".encoding"));
        fam.bloomParam = tp.get(fam.name + ".bloom_param");
        families.add(fam);
      }
      splits = readEscapedLines(dir.resolve("splits.txt")).toArray(NO_SPLITS);
      expected = TsvCell.readAll(dir.resolve("expected.tsv"));
      gets = readEscapedLines(dir.resolve("gets.txt"));
    } catch (Exception e) {
      throw new Fail("bad test input", null, e);
    }
    for (int i = 1; i < splits.length; i++) {
      if (Bytes.compareTo(splits[i - 1], splits[i]) >= 0) {
        throw new Fail("bad test input", null, "splits.txt is not strictly ascending at line "
          + (i + 1));
      }
    }
    Set<String> framings = new HashSet<>();
    for (Family f : families) {
      if (f.codec == Compression.Algorithm.ZSTD) {
        framings.add(f.zstdFraming);
      }
    }
    if (framings.size() > 1) {
      throw new Fail("bad test input", null, "families use different zstd framings " + framings
        + "; one JVM (master, region server, client) has one ZSTD codec");
    }
    Configuration conf = util.getConfiguration();
    if (!framings.isEmpty()) {
      String framing = framings.iterator().next();
      if ("hadoop".equals(framing) && !Props.hadoopNativeZstd()) {
        throw new ReadCheck.Skip("zstd_framing=hadoop needs native libhadoop with zstd");
      }
      Props.useZstdFraming(conf, framing);
    }

    // --- where each file must land: region = number of split keys <= its first row
    Path out = dir.resolve("out");
    int regions = splits.length + 1;
    Map<String, int[]> want = new TreeMap<>();
    int files = 0;
    FileSystem local = FileSystem.getLocal(conf).getRawFileSystem();
    for (Family f : families) {
      int[] counts = new int[regions];
      want.put(f.name, counts);
      Path famDir = out.resolve(f.name);
      if (!Files.isDirectory(famDir)) {
        continue;
      }
      for (Path p : listSorted(famDir)) {
        String name = p.getFileName().toString();
        org.apache.hadoop.fs.Path hp = new org.apache.hadoop.fs.Path(p.toAbsolutePath().toUri());
        if (!Files.isRegularFile(p) || name.startsWith("_") || name.startsWith(".")
          || name.equals("manifest.json")) {
          continue; // BulkLoadHFilesTool skips these too
        }
        if (!HFile.isHFileFormat(local, hp)) {
          // HBase would skip it with only a warning, silently losing its cells
          throw new Fail("not an HFile: " + f.name + "/" + name, null, "HFile.isHFileFormat is "
            + "false (bad trailer?), BulkLoadHFilesTool would skip it with a warning");
        }
        checkAllBlockChecksums(p, f.name + "/" + name);
        try (HFile.Reader r = HFile.createReader(local, hp, CacheConfig.DISABLED, true, conf)) {
          Optional<byte[]> first = r.getFirstRowKey();
          if (first.isPresent()) {
            counts[regionOf(splits, first.get())]++;
            files++;
          }
        } catch (Exception e) {
          throw new Fail("HFile.createReader failed on " + f.name + "/" + name, null, e);
        }
      }
    }

    // --- table, copy to the cluster's filesystem, bulk load
    TableName tn = TableName.valueOf("bulk_" + n + "_"
      + dir.getFileName().toString().replaceAll("[^A-Za-z0-9_]", "_"));
    Admin admin = util.getAdmin();
    TableDescriptorBuilder tdb = TableDescriptorBuilder.newBuilder(tn);
    for (Family f : families) {
      ColumnFamilyDescriptorBuilder cfb = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(
        f.name)).setCompressionType(f.codec).setBloomFilterType(f.bloom).setBlocksize(f.blockSize)
        .setDataBlockEncoding(f.encoding).setMaxVersions(Integer.MAX_VALUE);
      if (f.bloomParam != null) {
        cfb.setConfiguration("RowPrefixBloomFilter.prefix_length", f.bloomParam.trim());
      }
      tdb.setColumnFamily(cfb.build());
    }
    try {
      if (splits.length == 0) {
        admin.createTable(tdb.build());
      } else {
        admin.createTable(tdb.build(), splits);
      }
      util.waitUntilAllRegionsAssigned(tn);
    } catch (Exception e) {
      throw new Fail("create table", null, e);
    }
    try {
      FileSystem dfs = util.getTestFileSystem();
      org.apache.hadoop.fs.Path dst = new org.apache.hadoop.fs.Path("/bulk/" + tn.getNameAsString());
      FileUtil.copy(local, new org.apache.hadoop.fs.Path(out.toAbsolutePath().toUri()), dfs, dst,
        false, conf);
      HFile.getAndResetChecksumFailuresCount();
      Configuration lc = new Configuration(conf);
      lc.setBoolean("hbase.loadincremental.fail.if.need.split.hfile", true);
      Map<?, ?> loaded;
      try {
        loaded = BulkLoadHFiles.create(lc).bulkLoad(tn, dst);
      } catch (Exception e) {
        throw new Fail("BulkLoadHFilesTool", null, e);
      }
      if (files > 0 && loaded.isEmpty()) {
        throw new Fail("BulkLoadHFilesTool", null, "loaded nothing, " + files + " HFiles given");
      }
      checkPlacement(util, tn, splits, families, want);
      int cells = 0;
      Fail readFailure = null;
      try {
        cells = checkScan(util, tn, expected);
        checkGets(util, tn, gets, families, expected);
        checkScanRanges(util, tn, dir.resolve("scans"));
      } catch (Fail f) {
        readFailure = f;
      }
      // Checked first: a bad checksum may also garble what was read.
      long bad = HFile.getChecksumFailuresCount();
      if (bad > 0) {
        throw new Fail("region server checksum verification", null, "HBase counted " + bad
          + " HBase-checksum failures (it only logs a warning and re-reads with HDFS checksums)");
      }
      if (readFailure != null) {
        throw readFailure;
      }
      return "regions=" + regions + " files=" + files + " cells=" + cells + " gets="
        + gets.size();
    } finally {
      try {
        admin.disableTable(tn);
        admin.deleteTable(tn);
      } catch (Exception e) {
        OUT.println("NOTE could not drop " + tn + ": " + Fail.describe(e));
      }
    }
  }

  private static void checkPlacement(HBaseTestingUtility util, TableName tn, byte[][] splits,
    List<Family> families, Map<String, int[]> want) throws Fail {
    List<HRegion> regions = new ArrayList<>(util.getMiniHBaseCluster().getRegions(tn));
    regions.sort((a, b) -> Bytes.compareTo(a.getRegionInfo().getStartKey(),
      b.getRegionInfo().getStartKey()));
    if (regions.size() != splits.length + 1) {
      throw new Fail("regions", null, "table has " + regions.size() + " regions, splits.txt "
        + "gives " + (splits.length + 1));
    }
    for (int i = 0; i < regions.size(); i++) {
      HRegion r = regions.get(i);
      byte[] start = r.getRegionInfo().getStartKey();
      byte[] end = r.getRegionInfo().getEndKey();
      for (Family f : families) {
        HStore store = r.getStore(Bytes.toBytes(f.name));
        int got = store.getStorefilesCount();
        int exp = want.get(f.name)[i];
        String where = "region " + i + " [" + Esc.encode(start) + ", " + Esc.encode(end)
          + "), family " + f.name;
        if (got != exp) {
          throw new Fail("store file count", where, got + " store files after the load, "
            + exp + " HFiles have their first row in this region");
        }
        for (HStoreFile sf : store.getStorefiles()) {
          byte[] first = rowOf(sf.getFirstKey());
          byte[] last = rowOf(sf.getLastKey());
          if (Bytes.compareTo(first, start) < 0
            || (end.length > 0 && Bytes.compareTo(last, end) >= 0)) {
            throw new Fail("store file outside its region", where, "rows " + Esc.encode(first)
              + " .. " + Esc.encode(last));
          }
        }
      }
    }
  }

  private static byte[] rowOf(Optional<Cell> c) {
    if (!c.isPresent()) {
      return new byte[0];
    }
    Cell x = c.get();
    return Arrays.copyOfRange(x.getRowArray(), x.getRowOffset(),
      x.getRowOffset() + x.getRowLength());
  }

  /** Raw scan, all versions: every cell HBase has, delete markers included, in scan order. */
  private static int checkScan(HBaseTestingUtility util, TableName tn, List<TsvCell> expected)
    throws Exception {
    int i = 0;
    try (Table t = util.getConnection().getTable(tn);
      ResultScanner rs = t.getScanner(new Scan().setRaw(true).readAllVersions())) {
      for (Result r : rs) {
        for (Cell c : r.rawCells()) {
          TsvCell got = TsvCell.of(c);
          if (i >= expected.size()) {
            throw new Fail("scan returned extra cells", Fail.cell(i), "first extra: " + got);
          }
          TsvCell exp = expected.get(i);
          String d = exp.diff(new TsvCell(got.row, got.family, got.qualifier, got.ts, got.type,
            got.value, exp.tags)); // tags are not returned to clients
          if (d != null) {
            throw new Fail("scan cell " + d + " differs", Fail.cell(i), "expected " + exp
              + " but the scan returned " + got);
          }
          i++;
        }
      }
    } catch (Fail f) {
      throw f;
    } catch (Exception e) {
      throw new Fail("scan", Fail.cell(i), e);
    }
    if (i != expected.size()) {
      throw new Fail("scan returned too few cells", Fail.cell(i), i + " cells, expected.tsv has "
        + expected.size());
    }
    return i;
  }

  /**
   * Every row of gets.txt must come back from a Get (this goes through the ROW blooms). For
   * ROWCOL families, single-column Gets are also issued for columns that only hold Puts, since
   * only those consult a ROWCOL bloom.
   */
  private static void checkGets(HBaseTestingUtility util, TableName tn, List<byte[]> gets,
    List<Family> families, List<TsvCell> expected) throws Exception {
    Map<String, List<TsvCell>> byRowFamily = new TreeMap<>();
    for (TsvCell c : expected) {
      byRowFamily.computeIfAbsent(Esc.encode(c.row) + "\t" + Esc.encode(c.family),
        k -> new ArrayList<>()).add(c);
    }
    try (Table t = util.getConnection().getTable(tn)) {
      for (byte[] row : gets) {
        String where = "row " + Esc.encode(row);
        Result r;
        try {
          r = t.get(new Get(row));
        } catch (Exception e) {
          throw new Fail("get", where, e);
        }
        if (r.isEmpty()) {
          throw new Fail("get returned nothing", where, "gets.txt says this row exists");
        }
        for (Family f : families) {
          if (f.bloom != BloomType.ROWCOL) {
            continue;
          }
          List<TsvCell> cells = byRowFamily.get(Esc.encode(row) + "\t" + f.name);
          if (cells == null || cells.stream().anyMatch(c -> c.type != KeyValue.Type.Put)) {
            continue;
          }
          byte[] q = cells.get(0).qualifier;
          Result rc = t.get(new Get(row).addColumn(Bytes.toBytes(f.name), q));
          if (rc.isEmpty()) {
            throw new Fail("single-column get returned nothing (ROWCOL bloom)", where,
              "column " + f.name + ":" + Esc.encode(q));
          }
        }
      }
    }
  }

  /**
   * The client side of a rowkey scheme, per query NAME (computed by the case's independent oracle:
   * scans/NAME.rows): scanning every range of scans/NAME.ranges (start TAB stop per line, escaped,
   * as `hfilegen scan-ranges` prints them) must return exactly those rows, no more, no less. When
   * hfilegen said the ranges are a superset, scans/NAME.filter holds the client's filter
   * ({@code regex=} with one group capturing the field from the row key, {@code from=}, {@code to=},
   * {@code inclusive=}, compared as integers): the rows the ranges return must include every
   * expected row, and the filter must leave exactly them. scans/NAME.gets (`scan-ranges --gets`)
   * holds point gets instead: those must return exactly the expected rows.
   */
  private static void checkScanRanges(HBaseTestingUtility util, TableName tn, Path scans)
    throws Exception {
    if (!Files.isDirectory(scans)) {
      return;
    }
    try (Table t = util.getConnection().getTable(tn)) {
      for (Path rp : listSorted(scans)) {
        String name = rp.getFileName().toString();
        boolean isGets = name.endsWith(".gets");
        if (!name.endsWith(".ranges") && !isGets) {
          continue;
        }
        String query = name.substring(0, name.lastIndexOf('.'));
        java.util.TreeSet<String> want = new java.util.TreeSet<>();
        for (byte[] r : readEscapedLines(scans.resolve(query + ".rows"))) {
          want.add(Esc.encode(r));
        }
        java.util.TreeSet<String> got = new java.util.TreeSet<>();
        int nranges = 0;
        if (isGets) {
          for (byte[] row : readEscapedLines(rp)) {
            nranges++;
            Result r = t.get(new Get(row));
            if (!r.isEmpty()) {
              got.add(Esc.encode(r.getRow()));
            }
          }
        } else {
          for (String line : Files.readAllLines(rp, StandardCharsets.US_ASCII)) {
            if (line.isEmpty()) {
              continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length != 2) {
              throw new Fail("scan ranges " + query, null, "bad line '" + line + "'");
            }
            nranges++;
            Scan scan = new Scan().withStartRow(Esc.decode(f[0])).withStopRow(Esc.decode(f[1]));
            try (ResultScanner rs = t.getScanner(scan)) {
              for (Result r : rs) {
                if (!got.add(Esc.encode(r.getRow()))) {
                  throw new Fail("scan ranges " + query, null, "row " + Esc.encode(r.getRow())
                    + " returned by two ranges");
                }
              }
            }
          }
        }
        String what = isGets ? nranges + " point gets" : nranges + " ranges";
        Path fp = scans.resolve(query + ".filter");
        int scanned = got.size();
        if (!isGets && Files.exists(fp)) {
          java.util.TreeSet<String> missing = new java.util.TreeSet<>(want);
          missing.removeAll(got);
          if (!missing.isEmpty()) {
            throw new Fail("scan ranges " + query, null, "the superset of " + what + " lacks "
              + head(missing));
          }
          got = applyFilter(got, fp, query);
          what += " (a superset: " + scanned + " rows, " + got.size() + " after the filter)";
        }
        if (!got.equals(want)) {
          java.util.TreeSet<String> missing = new java.util.TreeSet<>(want);
          missing.removeAll(got);
          java.util.TreeSet<String> extra = new java.util.TreeSet<>(got);
          extra.removeAll(want);
          throw new Fail("scan ranges " + query, null, what + " returned " + got.size()
            + " rows, expected " + want.size() + "; missing " + head(missing) + ", extra "
            + head(extra));
        }
        OUT.println("  scan ranges " + query + ": " + what + ", " + got.size()
          + " rows, exactly the expected ones");
      }
    }
  }

  /** The client's filter of a superset: the rows whose captured field lies in the range. */
  private static java.util.TreeSet<String> applyFilter(java.util.TreeSet<String> rows, Path fp,
    String query) throws IOException, Fail {
    Map<String, String> props = new TreeMap<>();
    for (String line : Files.readAllLines(fp, StandardCharsets.UTF_8)) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        props.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    java.util.regex.Pattern re = java.util.regex.Pattern.compile(props.get("regex"));
    long from = Long.parseLong(props.get("from"));
    long to = Long.parseLong(props.get("to"));
    boolean incl = "1".equals(props.get("inclusive"));
    java.util.TreeSet<String> out = new java.util.TreeSet<>();
    for (String esc : rows) {
      String key = new String(Esc.decode(esc), StandardCharsets.ISO_8859_1);
      java.util.regex.Matcher m = re.matcher(key);
      if (!m.find()) {
        throw new Fail("scan ranges " + query, null, "filter regex does not match row " + esc);
      }
      long v = Long.parseLong(m.group(1));
      if (v >= from && (incl ? v <= to : v < to)) {
        out.add(esc);
      }
    }
    return out;
  }

  private static String head(java.util.SortedSet<String> s) {
    return s.isEmpty() ? "none" : s.size() + " (first " + s.first() + ")";
  }

  static int regionOf(byte[][] splits, byte[] row) {
    int i = 0;
    while (i < splits.length && Bytes.compareTo(splits[i], row) <= 0) {
      i++;
    }
    return i;
  }

  static List<byte[]> readEscapedLines(Path p) throws IOException {
    if (!Files.exists(p)) {
      return new ArrayList<>();
    }
    List<byte[]> out = new ArrayList<>();
    for (String line : Files.readAllLines(p, StandardCharsets.US_ASCII)) {
      if (!line.isEmpty()) {
        out.add(Esc.decode(line));
      }
    }
    return out;
  }

  private static List<Path> listSorted(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().collect(Collectors.toList());
    }
  }
}
