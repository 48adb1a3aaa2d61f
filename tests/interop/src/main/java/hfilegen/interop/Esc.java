package hfilegen.interop;

import java.io.ByteArrayOutputStream;

/**
 * The "escaped bytes" text form shared with the C side: bytes 0x20..0x7e stand for themselves,
 * except backslash which is written as two backslashes; every other byte is {@code \xNN} with
 * two lowercase hex digits. Tab and newline therefore never appear raw.
 */
public final class Esc {
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Esc() {
  }

  public static String encode(byte[] b) {
    return encode(b, 0, b.length);
  }

  public static String encode(byte[] b, int off, int len) {
    StringBuilder sb = new StringBuilder(len + 8);
    for (int i = off; i < off + len; i++) {
      int c = b[i] & 0xff;
      if (c == '\\') {
        sb.append("\\\\");
      } else if (c >= 0x20 && c <= 0x7e) {
        sb.append((char) c);
      } else {
        sb.append("\\x").append(HEX[c >> 4]).append(HEX[c & 15]);
      }
    }
    return sb.toString();
  }

  /** Strict decoder: rejects anything the encoder would not have produced. */
  public static byte[] decode(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        throw new IllegalArgumentException("raw character 0x" + Integer.toHexString(c)
          + " at " + i + " in escaped field");
      }
      if (c != '\\') {
        out.write(c);
        continue;
      }
      if (i + 1 >= s.length()) {
        throw new IllegalArgumentException("dangling backslash at " + i);
      }
      char n = s.charAt(i + 1);
      if (n == '\\') {
        out.write('\\');
        i++;
      } else if (n == 'x' && i + 3 < s.length() && isLowerHex(s.charAt(i + 2))
        && isLowerHex(s.charAt(i + 3))) {
        out.write(Integer.parseInt(s.substring(i + 2, i + 4), 16));
        i += 3;
      } else {
        throw new IllegalArgumentException("bad escape at " + i + " in escaped field");
      }
    }
    return out.toByteArray();
  }

  private static boolean isLowerHex(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
  }
}
