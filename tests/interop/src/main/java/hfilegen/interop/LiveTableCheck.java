package hfilegen.interop;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.KeyValueUtil;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.io.hfile.CacheConfig;
import org.apache.hadoop.hbase.io.hfile.HFile;
import org.apache.hadoop.hbase.io.hfile.HFileScanner;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.regionserver.HStoreFile;
import org.apache.hadoop.hbase.tool.BulkLoadHFiles;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@code LiveTableCheck HFILEGEN WORK_DIR}: hfilegen's HBase client against a live mini cluster
 * (1 master, 1 region server, ZooKeeper on loopback). Creates a 16-region table whose families
 * differ in codec, bloom, block size and data block encoding, then runs the hfilegen binary as a
 * subprocess (each with a timeout): {@code splits --table} must print the table's start keys;
 * {@code build --table} must take each family's settings (read back from the HFiles' trailer and
 * file info), the data block encoding too (FAST_DIFF, ROW_INDEX_V1); the output must bulk-load
 * with fail-if-need-split; {@code verify --table} must fail the files of a family whose encoding
 * was overridden at build time or changed in the table since; after one region is split and two
 * others merged through Admin,
 * {@code verify --table} must name exactly the files that now cross a boundary and exit 1, and
 * a rebuild with {@code --table} must pass and load. Then the failure cases: a disabled table, a
 * missing table, a wrong znode parent, and a stopped master, each a clear error in bounded time.
 * Prints PASS/FAIL lines and "N passed, M failed".
 *
 * <p>{@code LiveTableCheck --serve WORK_DIR} (development): starts the cluster, creates the
 * tables, writes the quorum to WORK_DIR/zk.txt and waits until WORK_DIR/stop exists.
 */
public final class LiveTableCheck {
  private static final PrintStream OUT = System.out;
  private static final String TABLE = "live";
  private static final int ROWS = 32000;
  private static final int REGIONS = 16;
  private static final long TS = 1700000000000L;
  private static final long TIMEOUT_S = 120;
  private static final String PREFIX_LENGTH_KEY = "RowPrefixBloomFilter.prefix_length";

  private static int passed;
  private static int failed;

  private LiveTableCheck() {
  }

  private static void pass(String what) {
    OUT.println("PASS " + what);
    OUT.flush();
    passed++;
  }

  private static void fail(String what, String why) {
    OUT.println("FAIL " + what + ": " + why);
    OUT.flush();
    failed++;
  }

  private static void check(String what, boolean ok, String why) {
    if (ok) {
      pass(what);
    } else {
      fail(what, why);
    }
  }

  static String key(int i) {
    return String.format("k%05d", i);
  }

  static byte[][] splitKeys() {
    byte[][] s = new byte[REGIONS - 1][];
    for (int r = 1; r < REGIONS; r++) {
      s[r - 1] = Bytes.toBytes(key(r * (ROWS / REGIONS)));
    }
    return s;
  }

  /** One hfilegen run: exit code, stdout, stderr, seconds. */
  static final class Run {
    int rc;
    String out;
    String err;
    double secs;

    @Override
    public String toString() {
      return "exit " + rc + " after " + String.format("%.1f", secs) + "s; stderr: "
        + err.trim().replace('\n', ' ') + (out.isEmpty() ? "" : "; stdout: "
        + (out.length() > 600 ? out.substring(0, 600) + "..." : out).trim().replace('\n', ' '));
    }
  }

  static Run run(Path work, String... args) throws Exception {
    Path o = Files.createTempFile(work, "out", ".txt");
    Path e = Files.createTempFile(work, "err", ".txt");
    ProcessBuilder pb = new ProcessBuilder(args);
    pb.redirectOutput(o.toFile());
    pb.redirectError(e.toFile());
    pb.environment().remove("HBASE_CONF_DIR");
    long t0 = System.nanoTime();
    Process p = pb.start();
    Run r = new Run();
    if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      r.rc = -1;
    } else {
      r.rc = p.exitValue();
    }
    r.secs = (System.nanoTime() - t0) / 1e9;
    r.out = new String(Files.readAllBytes(o), StandardCharsets.UTF_8);
    r.err = new String(Files.readAllBytes(e), StandardCharsets.UTF_8);
    Files.delete(o);
    Files.delete(e);
    return r;
  }

  static void createTables(HBaseTestingUtility util) throws Exception {
    Admin admin = util.getAdmin();
    TableDescriptorBuilder tdb = TableDescriptorBuilder.newBuilder(TableName.valueOf(TABLE));
    tdb.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("a"))
      .setCompressionType(Compression.Algorithm.GZ).setBloomFilterType(BloomType.ROW)
      .setBlocksize(8192).build());
    tdb.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("b"))
      .setCompressionType(Compression.Algorithm.SNAPPY).setBloomFilterType(BloomType.ROWCOL)
      .setBlocksize(65536).setDataBlockEncoding(DataBlockEncoding.FAST_DIFF).build());
    tdb.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("c"))
      .setCompressionType(Compression.Algorithm.LZ4).setBloomFilterType(BloomType.NONE)
      .setBlocksize(4096).build());
    tdb.setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("d"))
      .setCompressionType(Compression.Algorithm.LZ4)
      .setBloomFilterType(BloomType.ROWPREFIX_FIXED_LENGTH)
      .setConfiguration(PREFIX_LENGTH_KEY, "4").setBlocksize(16384)
      .setDataBlockEncoding(DataBlockEncoding.ROW_INDEX_V1).build());
    admin.createTable(tdb.build(), splitKeys());
    util.waitUntilAllRegionsAssigned(TableName.valueOf(TABLE));
    // a family whose COMPRESSION hfilegen does not write (BZIP2; without native libhadoop
    // HBase cannot compress with it either, so the table skips the codec sanity check)
    TableName bz = TableName.valueOf("live_bzip2");
    admin.createTable(TableDescriptorBuilder.newBuilder(bz).setValue("hbase.table.sanity.checks",
      "false")
      .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("z"))
        .setCompressionType(Compression.Algorithm.BZIP2).setBlocksize(4096).build()).build(),
      new byte[][] {Bytes.toBytes("k05000")});
    util.waitUntilAllRegionsAssigned(bz);
    TableName dis = TableName.valueOf("live_disabled");
    admin.createTable(TableDescriptorBuilder.newBuilder(dis)
      .setColumnFamily(ColumnFamilyDescriptorBuilder.of("f")).build(),
      new byte[][] {Bytes.toBytes("m")});
    util.waitUntilAllRegionsAssigned(dis);
    admin.disableTable(dis);
  }

  static void writeInput(Path csv) throws IOException {
    StringBuilder sb = new StringBuilder("id,va,vb,vc,vd\n");
    for (int i = 0; i < ROWS; i++) {
      String k = key(i);
      sb.append(k).append(',').append("alpha-").append(k).append("-").append(i * 7919 % 100003)
        .append("-0123456789abcdefghijklmnopqrstuvwxyz").append(',')
        .append("beta-").append(i % 97).append("-").append(k).append("-ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        .append(',').append("gamma-").append(Integer.toHexString(i * 31337)).append("-").append(k)
        .append(',').append("delta-").append(i % 13).append("-").append(k).append('\n');
    }
    Files.write(csv, sb.toString().getBytes(StandardCharsets.UTF_8));
  }

  static List<Path> hfiles(Path out) throws IOException {
    List<Path> l = new ArrayList<>();
    try (Stream<Path> fams = Files.list(out)) {
      for (Path f : fams.filter(Files::isDirectory).sorted().collect(Collectors.toList())) {
        try (Stream<Path> fs = Files.list(f)) {
          fs.filter(p -> !p.getFileName().toString().startsWith("_")
            && !p.getFileName().toString().startsWith(".")).sorted().forEach(l::add);
        }
      }
    }
    return l;
  }

  /** Family settings as HBase reads them from one of hfilegen's files. */
  static String settingsOf(Configuration conf, Path file, byte[][] firstLast) throws Exception {
    FileSystem fs = FileSystem.getLocal(conf).getRawFileSystem();
    HFile.Reader r = HFile.createReader(fs,
      new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()), CacheConfig.DISABLED, true,
      conf);
    try {
      String codec = r.getTrailer().getCompressionCodec().getName();
      byte[] bt = r.getHFileInfo().get(HStoreFile.BLOOM_FILTER_TYPE_KEY);
      String bloom = bt == null ? "NONE" : Bytes.toString(bt);
      long blocks = r.getTrailer().getDataIndexCount();
      long bytes = 0;
      HFileScanner s = r.getScanner(conf, false, false);
      if (s.seekTo()) {
        do {
          Cell c = s.getCell();
          bytes += KeyValueUtil.length(c.getRowLength(), c.getFamilyLength(), c.getQualifierLength(),
            c.getValueLength(), c.getTagsLength(), true) + 1; // + the mvcc vlong (0)
        } while (s.next());
      }
      firstLast[0] = r.getFirstRowKey().orElse(null);
      firstLast[1] = r.getLastRowKey().orElse(null);
      long avg = blocks > 0 ? bytes / blocks : 0;
      byte[] bp = r.getHFileInfo().get(HStoreFile.BLOOM_FILTER_PARAM_KEY);
      return codec + "," + bloom + "," + blocks + "," + avg + "," + r.getDataBlockEncoding() + ","
        + (bp == null ? "-" : Integer.toString(Bytes.toInt(bp)));
    } finally {
      r.close();
    }
  }

  static long countRows(HBaseTestingUtility util) throws IOException {
    long n = 0;
    try (Table t = util.getConnection().getTable(TableName.valueOf(TABLE));
      ResultScanner s = t.getScanner(new Scan())) {
      for (Result r : s) {
        n++;
      }
    }
    return n;
  }

  static String bulkLoad(HBaseTestingUtility util, Path out, String name) {
    try {
      Configuration conf = util.getConfiguration();
      FileSystem dfs = util.getTestFileSystem();
      org.apache.hadoop.fs.Path dst = new org.apache.hadoop.fs.Path("/live/" + name);
      FileUtil.copy(FileSystem.getLocal(conf),
        new org.apache.hadoop.fs.Path(out.toAbsolutePath().toUri()), dfs, dst, false, conf);
      Configuration lc = new Configuration(conf);
      lc.setBoolean("hbase.loadincremental.fail.if.need.split.hfile", true);
      if (BulkLoadHFiles.create(lc).bulkLoad(TableName.valueOf(TABLE), dst).isEmpty()) {
        return "loaded nothing";
      }
      return null;
    } catch (Exception e) {
      return Fail.describe(e);
    }
  }

  static List<String> startKeys(HBaseTestingUtility util) throws IOException {
    try (RegionLocator l = util.getConnection().getRegionLocator(TableName.valueOf(TABLE))) {
      List<String> s = new ArrayList<>();
      for (byte[] k : l.getStartKeys()) {
        if (k.length > 0) {
          s.add(Esc.encode(k));
        }
      }
      return s;
    }
  }

  static String[] buildArgs(String h, String zk, Path csv, Path out, String... more) {
    List<String> a = new ArrayList<>(Arrays.asList(h, "build", "--table", TABLE, "--zookeeper",
      zk, "--rowkey", "{id}", "--map", "va=a:q", "--map", "vb=b:q", "--map", "vc=c:q", "--map",
      "vd=d:q", "--timestamp", Long.toString(TS), "--threads", "2", "--memory", "64m", "--out",
      out.toString()));
    a.addAll(Arrays.asList(more));
    a.add(csv.toString());
    return a.toArray(new String[0]);
  }

  /** The files verify names in "FAIL file: family 'f': ..." lines containing {@code what}. */
  static Set<String> failedFiles(String out, String what) {
    Set<String> s = new TreeSet<>();
    for (String line : out.split("\n")) {
      int i = line.indexOf(": family '");
      if (line.startsWith("FAIL ") && i > 5 && line.contains(what)) {
        s.add(line.substring(5, i));
      }
    }
    return s;
  }

  static Set<String> familyFiles(List<Path> files, String fam) {
    return files.stream().filter(p -> p.getParent().getFileName().toString().equals(fam))
      .map(Path::toString).collect(Collectors.toCollection(TreeSet::new));
  }

  /** Family b's encoding and family d's bloom prefix length, changed through Admin. */
  static void modifyFamilies(HBaseTestingUtility util, DataBlockEncoding bEnc, String dPrefix)
    throws Exception {
    Admin admin = util.getAdmin();
    TableName tn = TableName.valueOf(TABLE);
    admin.modifyColumnFamily(tn, ColumnFamilyDescriptorBuilder.newBuilder(admin.getDescriptor(tn)
      .getColumnFamily(Bytes.toBytes("b"))).setDataBlockEncoding(bEnc).build());
    admin.modifyColumnFamily(tn, ColumnFamilyDescriptorBuilder.newBuilder(admin.getDescriptor(tn)
      .getColumnFamily(Bytes.toBytes("d"))).setConfiguration(PREFIX_LENGTH_KEY, dPrefix).build());
    util.waitUntilAllRegionsAssigned(tn);
  }

  public static void main(String[] args) throws Exception {
    boolean serve = args.length == 2 && args[0].equals("--serve");
    if (args.length != 2) {
      System.err.println("usage: LiveTableCheck HFILEGEN WORK_DIR | --serve WORK_DIR");
      System.exit(2);
    }
    System.setOut(System.err);
    Path work = Paths.get(args[1]).toAbsolutePath();
    Files.createDirectories(work);
    String given = System.getProperty("bulkcheck.dir");
    Path base = given != null ? Paths.get(given + "-live") : work.resolve("minicluster");
    Files.createDirectories(base);
    Configuration conf = MiniConf.create(base);
    // the split parent stays in meta (split=true, offline=true) as long as the janitor sleeps
    conf.setInt("hbase.catalogjanitor.interval", 3600000);
    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    long t0 = System.nanoTime();
    try {
      util.startMiniCluster(StartMiniClusterOption.builder().numMasters(1).numRegionServers(1)
        .numDataNodes(1).build());
      createTables(util);
    } catch (Throwable t) {
      OUT.println("FAIL mini cluster: could not start : " + Fail.describe(t));
      OUT.println("0 passed, 1 failed");
      OUT.flush();
      Runtime.getRuntime().halt(1);
    }
    String zk = "127.0.0.1:" + util.getZkCluster().getClientPort();
    OUT.printf("NOTE mini cluster up with table '%s' (%d regions) in %.1fs; ZooKeeper %s%n",
      TABLE, REGIONS, (System.nanoTime() - t0) / 1e9, zk);
    OUT.flush();
    if (serve) {
      Files.write(work.resolve("zk.txt"), (zk + "\n").getBytes(StandardCharsets.UTF_8));
      while (!Files.exists(work.resolve("stop"))) {
        Thread.sleep(500);
      }
      Runtime.getRuntime().halt(0);
    }
    try {
      checks(util, args[0], zk, work);
    } catch (Throwable t) {
      fail("LiveTableCheck", "unexpected error : " + Fail.describe(t));
    }
    OUT.println(passed + " passed, " + failed + " failed");
    OUT.flush();
    // The master is stopped by the last check; a clean shutdown would wait for it.
    Runtime.getRuntime().halt(failed == 0 ? 0 : 1);
  }

  static void checks(HBaseTestingUtility util, String h, String zk, Path work) throws Exception {
    Configuration conf = util.getConfiguration();
    // 1. splits --table equals the table's start keys
    List<String> want = startKeys(util);
    Run r = run(work, h, "splits", "--table", TABLE, "--zookeeper", zk);
    List<String> got = Arrays.stream(r.out.split("\n")).filter(s -> !s.isEmpty())
      .collect(Collectors.toList());
    check("splits --table " + TABLE + " prints the " + want.size() + " start keys of "
      + "RegionLocator", r.rc == 0 && got.equals(want), "want " + want + ", got " + got + "; "
      + r);
    Path dump = work.resolve("capture");
    Files.createDirectories(dump);
    r = run(work, h, "splits", "--table", TABLE, "--zookeeper", zk, "--format", "shell",
      "--hbase-dump", dump.toString());
    check("splits --table --format shell names each family's settings", r.rc == 0
      && r.out.contains("{NAME => 'a', COMPRESSION => 'GZ', BLOOMFILTER => 'ROW', BLOCKSIZE => "
        + "'8192'}") && r.out.contains("DATA_BLOCK_ENCODING => 'FAST_DIFF'")
      && r.out.contains("BLOOMFILTER => 'ROWPREFIX_FIXED_LENGTH', BLOCKSIZE => '16384', "
        + "DATA_BLOCK_ENCODING => 'ROW_INDEX_V1', CONFIGURATION => "
        + "{'RowPrefixBloomFilter.prefix_length' => '4'}}")
      && r.out.contains("SPLITS => [\"k02000\""), r.toString());

    // 2. build --table takes the split points and each family's settings
    Path csv = work.resolve("input.csv");
    writeInput(csv);
    Path out = work.resolve("out1");
    FileUtil.fullyDelete(out.toFile());
    r = run(work, buildArgs(h, zk, csv, out));
    check("build --table succeeds", r.rc == 0 && Files.exists(out.resolve("_SUCCESS")),
      r.toString());
    check("build --table names the encodings it takes (b fast_diff, d row_index_v1)",
      r.err.contains("family 'b': codec snappy, bloom rowcol, block size 65536, encoding "
        + "fast_diff") && r.err.contains("family 'd': codec lz4, bloom rowprefix:4, block size "
        + "16384, encoding row_index_v1") && !r.err.contains("warning"), r.err);
    String manifest = Files.exists(out.resolve("manifest.json"))
      ? new String(Files.readAllBytes(out.resolve("manifest.json")), StandardCharsets.UTF_8) : "";
    check("manifest.json records the live region boundaries", manifest.contains(
      "\"splits_source\": \"table live") && manifest.contains("\"k30000\""), "manifest: "
      + (manifest.length() > 300 ? manifest.substring(0, 300) : manifest));
    List<Path> files = Files.exists(out) ? hfiles(out) : new ArrayList<>();
    String[][] wantSettings = {{"a", "gz", "ROW", "8192", "NONE"},
      {"b", "snappy", "ROWCOL", "65536", "FAST_DIFF"}, {"c", "lz4", "NONE", "4096", "NONE"},
      {"d", "lz4", "ROWPREFIX_FIXED_LENGTH", "16384", "ROW_INDEX_V1", "4"}};
    for (String[] w : wantSettings) {
      List<Path> ff = files.stream().filter(p -> p.getParent().getFileName().toString()
        .equals(w[0])).collect(Collectors.toList());
      String bad = ff.size() == REGIONS ? null : ff.size() + " files, want " + REGIONS;
      for (Path f : ff) {
        if (bad != null) {
          break;
        }
        String[] s = settingsOf(conf, f, new byte[2][]).split(",");
        long bs = Long.parseLong(w[3]);
        long blocks = Long.parseLong(s[2]);
        long avg = Long.parseLong(s[3]);
        if (!s[0].equals(w[1]) || !s[1].equals(w[2]) || !s[4].equals(w[4])
          || (w.length > 5 && !s[5].equals(w[5]))) {
          bad = f + ": codec " + s[0] + ", bloom " + s[1] + " (param " + s[5] + "), encoding "
            + s[4];
        } else if (blocks < 2 || avg < bs / 2 || avg > bs + bs / 2 + 512) {
          bad = f + ": " + blocks + " data blocks of " + avg + " bytes on average for BLOCKSIZE "
            + bs;
        }
      }
      check("family " + w[0] + " files carry the table's settings (" + w[1] + ", " + w[2]
        + (w.length > 5 ? " " + w[5] : "") + ", " + w[4] + ", blocks of ~" + w[3]
        + " bytes) as HBase reads them", bad == null,
        String.valueOf(bad));
    }

    // 3. the output bulk-loads with fail-if-need-split
    String lerr = bulkLoad(util, out, "out1");
    long rows = lerr == null ? countRows(util) : -1;
    check("BulkLoadHFilesTool (fail.if.need.split.hfile) loads build --table output", lerr == null
      && rows == ROWS, lerr != null ? lerr : rows + " rows, want " + ROWS);
    r = run(work, h, "verify", out.toString(), "--table", TABLE, "--zookeeper", zk);
    check("verify --table passes right after the build", r.rc == 0 && r.out.contains("PASS"),
      r.toString());

    // 3b. the encoding: an override at build time, then a change of the table's
    Path outEnc = work.resolve("out-enc");
    FileUtil.fullyDelete(outEnc.toFile());
    r = run(work, buildArgs(h, zk, csv, outEnc, "--family-option", "d:encoding=none"));
    List<Path> encFiles = Files.exists(outEnc) ? hfiles(outEnc) : new ArrayList<>();
    String dEnc = "";
    for (Path f : encFiles) {
      String fam = f.getParent().getFileName().toString();
      if (fam.equals("d") || fam.equals("b")) {
        dEnc += fam + "=" + settingsOf(conf, f, new byte[2][]).split(",")[4] + " ";
      }
    }
    check("--family-option d:encoding=none overrides the table's ROW_INDEX_V1 (b stays "
      + "FAST_DIFF)", r.rc == 0 && r.err.contains("family 'd': codec lz4, bloom rowprefix:4, "
        + "block size 16384, encoding (command line)") && !dEnc.contains("d=ROW_INDEX_V1")
      && dEnc.contains("d=NONE") && !dEnc.contains("b=NONE") && dEnc.contains("b=FAST_DIFF"),
      dEnc + "; " + r);
    Run v = run(work, h, "verify", outEnc.toString(), "--table", TABLE, "--zookeeper", zk);
    check("verify --table fails exactly family d's files of that build (encoding NONE, the "
      + "table says ROW_INDEX_V1)", v.rc == 1 && failedFiles(v.out, "data block encoding NONE, "
        + "the table says DATA_BLOCK_ENCODING ROW_INDEX_V1").equals(familyFiles(encFiles, "d"))
      && failedFiles(v.out, "").equals(familyFiles(encFiles, "d")) && !encFiles.isEmpty(),
      v.toString());
    modifyFamilies(util, DataBlockEncoding.DIFF, "5");
    v = run(work, h, "verify", out.toString(), "--table", TABLE, "--zookeeper", zk);
    Set<String> bd = new TreeSet<>(familyFiles(files, "b"));
    bd.addAll(familyFiles(files, "d"));
    check("after the table's family b changes to DIFF and d's prefix length to 5, verify --table "
      + "fails exactly b's files (FAST_DIFF) and d's (prefix length 4)", v.rc == 1
      && failedFiles(v.out, "data block encoding FAST_DIFF, the table says DATA_BLOCK_ENCODING "
        + "DIFF").equals(familyFiles(files, "b")) && failedFiles(v.out, "bloom prefix length 4, "
        + "the table says RowPrefixBloomFilter.prefix_length 5").equals(familyFiles(files, "d"))
      && failedFiles(v.out, "").equals(bd), v.toString());
    modifyFamilies(util, DataBlockEncoding.FAST_DIFF, "4");
    v = run(work, h, "verify", out.toString(), "--table", TABLE, "--zookeeper", zk);
    check("with FAST_DIFF and prefix length 4 restored, verify --table passes again", v.rc == 0,
      v.toString());

    // 4. split one region and merge two others, then verify must name the crossing files
    Admin admin = util.getAdmin();
    TableName tn = TableName.valueOf(TABLE);
    byte[] splitAt = Bytes.toBytes(key(5 * (ROWS / REGIONS) + 1000));
    RegionInfo toSplit = null;
    RegionInfo m1 = null;
    RegionInfo m2 = null;
    for (RegionInfo ri : admin.getRegions(tn)) {
      String s = Bytes.toString(ri.getStartKey());
      if (s.equals(key(5 * (ROWS / REGIONS)))) {
        toSplit = ri;
      } else if (s.equals(key(9 * (ROWS / REGIONS)))) {
        m1 = ri;
      } else if (s.equals(key(10 * (ROWS / REGIONS)))) {
        m2 = ri;
      }
    }
    admin.splitRegionAsync(toSplit.getRegionName(), splitAt).get(120, TimeUnit.SECONDS);
    admin.mergeRegionsAsync(new byte[][] {m1.getRegionName(), m2.getRegionName()}, false)
      .get(120, TimeUnit.SECONDS);
    List<String> expectKeys = new ArrayList<>();
    for (byte[] k : splitKeys()) {
      String s = Bytes.toString(k);
      if (!s.equals(key(10 * (ROWS / REGIONS)))) {
        expectKeys.add(s);
      }
    }
    expectKeys.add(Bytes.toString(splitAt));
    expectKeys.sort(null);
    long deadline = System.currentTimeMillis() + 60000;
    while (!startKeys(util).equals(expectKeys) && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
    }
    OUT.println("NOTE split " + toSplit.getRegionNameAsString() + " at " + Bytes.toString(splitAt)
      + ", merged the regions at " + key(9 * (ROWS / REGIONS)) + " and "
      + key(10 * (ROWS / REGIONS)) + "; start keys now " + startKeys(util));
    Path dumpSplit = work.resolve("capture-after-split");
    Files.createDirectories(dumpSplit);
    r = run(work, h, "splits", "--table", TABLE, "--zookeeper", zk, "--hbase-dump",
      dumpSplit.toString());
    got = Arrays.stream(r.out.split("\n")).filter(s -> !s.isEmpty()).collect(Collectors.toList());
    check("splits --table follows the split and the merge (split parent left out)",
      r.rc == 0 && got.equals(expectKeys), "want " + expectKeys + ", got " + got + "; " + r);
    Set<String> crossing = new TreeSet<>();
    for (Path f : files) {
      byte[][] fl = new byte[2][];
      settingsOf(conf, f, fl);
      if (Bytes.compareTo(fl[0], splitAt) < 0 && Bytes.compareTo(fl[1], splitAt) >= 0) {
        crossing.add(f.toString());
      }
    }
    r = run(work, h, "verify", out.toString(), "--table", TABLE, "--zookeeper", zk);
    Set<String> named = new TreeSet<>();
    for (String line : r.out.split("\n")) {
      if (line.startsWith("FAIL ") && line.contains(" span regions")) {
        named.add(line.substring(5, line.indexOf(": rows")));
      }
    }
    check("verify --table exits 1 naming exactly the " + crossing.size() + " files that now "
      + "cross the new boundary (one per family)", r.rc == 1 && named.equals(crossing)
      && crossing.size() == 4,
      "want " + crossing + ", named " + named + "; " + r);
    check("verify --table names the region changes (split at " + Bytes.toString(splitAt)
      + ", merge at " + key(10 * (ROWS / REGIONS)) + ")", r.out.contains("split at \""
        + Bytes.toString(splitAt) + "\"") && r.out.contains("merged"), r.out);

    // 5. a rebuild against the changed table passes and loads
    Path out2 = work.resolve("out2");
    FileUtil.fullyDelete(out2.toFile());
    r = run(work, buildArgs(h, zk, csv, out2));
    v = run(work, h, "verify", out2.toString(), "--table", TABLE, "--zookeeper", zk);
    check("a rebuild with --table passes verify --table", r.rc == 0 && v.rc == 0, r + " / " + v);
    lerr = bulkLoad(util, out2, "out2");
    rows = lerr == null ? countRows(util) : -1;
    check("the rebuild bulk-loads with fail.if.need.split.hfile", lerr == null && rows == ROWS,
      lerr != null ? lerr : rows + " rows, want " + ROWS);

    // 5b. a family codec hfilegen does not write: refused, then chosen per family
    String[] bzArgs = {h, "build", "--table", "live_bzip2", "--zookeeper", zk, "--rowkey", "{id}",
      "--family", "z", "--timestamp", Long.toString(TS), "--out", null, csv.toString()};
    Path outBz = work.resolve("out-bz");
    bzArgs[bzArgs.length - 2] = outBz.toString();
    r = run(work, bzArgs);
    check("build --table refuses a family with COMPRESSION BZIP2, naming the way out", r.rc == 1
      && r.err.contains("family 'z' has COMPRESSION BZIP2")
      && r.err.contains("--family-option z:codec=") && !Files.exists(outBz.resolve("_SUCCESS")),
      r.toString());
    List<String> bzo = new ArrayList<>(Arrays.asList(bzArgs));
    bzo.addAll(bzo.size() - 1, Arrays.asList("--family-option", "z:codec=gz",
      "--family-option", "z:block-size=16k"));
    FileUtil.fullyDelete(outBz.toFile());
    r = run(work, bzo.toArray(new String[0]));
    List<Path> bzFiles = r.rc == 0 ? hfiles(outBz) : new ArrayList<>();
    String bzSet = bzFiles.isEmpty() ? "" : settingsOf(conf, bzFiles.get(0), new byte[2][]);
    check("--family-option z:codec=gz (and z:block-size=16k) is taken instead of the table's "
      + "BZIP2, as the message says", r.rc == 0 && bzFiles.size() == 2
      && r.err.contains("family 'z': codec (command line), bloom row, block size (command line)")
      && bzSet.startsWith("gz,"), bzSet + "; " + r);

    // 5c. columns mapped to a family the table lacks: completebulkload would refuse the
    // files ("Unmatched family names"), so the build does, as a usage error (exit 2)
    Path outNf = work.resolve("out-nofam");
    r = run(work, buildArgs(h, zk, csv, outNf, "--map", "va=nofam:q"));
    check("build --table refuses a column mapped to a family the table lacks (exit 2), "
      + "naming it", r.rc == 2 && r.err.contains("family 'nofam' is not a family of the table")
      && !Files.exists(outNf.resolve("_SUCCESS")), r.toString());

    // 6. clear errors in bounded time
    r = run(work, h, "splits", "--table", "live_disabled", "--zookeeper", zk);
    check("a disabled table is refused clearly", r.rc == 1 && r.err.contains("DISABLED")
      && r.secs < 30, r.toString());
    r = run(work, h, "build", "--table", "no_such_table", "--zookeeper", zk, "--rowkey", "{id}",
      "--out", work.resolve("out-missing").toString(), csv.toString());
    check("a missing table is refused clearly", r.rc == 1 && r.err.contains("not found")
      && r.secs < 30 && !Files.exists(work.resolve("out-missing/_SUCCESS")), r.toString());
    r = run(work, h, "splits", "--table", TABLE, "--zookeeper", zk, "--znode-parent", "/nohbase");
    check("a wrong znode parent is refused clearly", r.rc == 1 && r.err.contains("znode-parent")
      && r.secs < 30, r.toString());
    util.getMiniHBaseCluster().stopMaster(0);
    util.getMiniHBaseCluster().waitOnMaster(0);
    r = run(work, buildArgs(h, zk, csv, work.resolve("out-nomaster")));
    check("a stopped master is reported clearly in bounded time", r.rc == 1
      && r.err.contains("master") && r.secs < 60, r.toString());
  }
}
