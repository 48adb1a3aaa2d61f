package hfilegen.interop;

/**
 * A failed check. Its message is already in the report form
 * {@code <what> (<where>) : <detail>}, e.g.
 * {@code checksum mismatch (block at offset 1234) : ChecksumUtil.validateChecksum rejected ...}.
 */
public final class Fail extends Exception {
  private static final long serialVersionUID = 1L;

  public Fail(String what, String where, String detail) {
    super(what + (where == null ? "" : " (" + where + ")") + " : " + detail);
  }

  public Fail(String what, String where, Throwable cause) {
    this(what, where, describe(cause));
  }

  /** Exception class and message, plus the root cause when it says something else. */
  public static String describe(Throwable t) {
    String s = t.getClass().getSimpleName() + ": " + t.getMessage();
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    if (root != t) {
      s += " <- " + root.getClass().getSimpleName() + ": " + root.getMessage();
    }
    return s.replace('\n', ' ');
  }

  public static String block(long offset) {
    return "block at offset " + offset;
  }

  public static String cell(long index) {
    return "cell #" + index;
  }
}
