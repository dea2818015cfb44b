package com.paymentsservice.sdk;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** A small JSON reader and writer (objects as Map, arrays as List, integers as Long), and typed accessors for generated code. */
public final class Json {
  private Json() {}

  /** Parses a JSON text. */
  public static Object parse(String text) {
    Reader r = new Reader(text);
    r.skip();
    Object value = r.value();
    r.skip();
    if (r.i != text.length()) throw new IllegalArgumentException("Trailing characters in JSON at " + r.i);
    return value;
  }

  /** Writes Maps, Lists, Strings, Numbers, Booleans, nulls and Params as JSON. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(value, sb);
    return sb.toString();
  }

  private static void write(Object value, StringBuilder sb) {
    if (value == null) sb.append("null");
    else if (value instanceof Params p) write(p.toMap(), sb);
    else if (value instanceof String s) quote(s, sb);
    else if (value instanceof Boolean || value instanceof Long || value instanceof Integer) sb.append(value);
    else if (value instanceof Number n) sb.append(n.doubleValue() == Math.rint(n.doubleValue()) && !Double.isInfinite(n.doubleValue()) ? String.valueOf(n.longValue()) : n.toString());
    else if (value instanceof Map<?, ?> m) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) sb.append(',');
        first = false;
        quote(String.valueOf(e.getKey()), sb);
        sb.append(':');
        write(e.getValue(), sb);
      }
      sb.append('}');
    } else if (value instanceof Iterable<?> list) {
      sb.append('[');
      boolean first = true;
      for (Object item : list) {
        if (!first) sb.append(',');
        first = false;
        write(item, sb);
      }
      sb.append(']');
    } else quote(value.toString(), sb);
  }

  private static void quote(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          if (c < 0x20) sb.append(String.format("\\u%04x", (int) c));
          else sb.append(c);
        }
      }
    }
    sb.append('"');
  }

  private static final class Reader {
    final String s;
    int i;

    Reader(String s) {
      this.s = s;
    }

    void skip() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("Invalid JSON: " + what + " at " + i);
    }

    Object value() {
      if (i >= s.length()) throw error("unexpected end");
      char c = s.charAt(i);
      switch (c) {
        case '{': {
          i++;
          Map<String, Object> map = new LinkedHashMap<>();
          skip();
          if (s.charAt(i) == '}') {
            i++;
            return map;
          }
          while (true) {
            skip();
            if (s.charAt(i) != '"') throw error("expected a key");
            String key = string();
            skip();
            if (s.charAt(i++) != ':') throw error("expected ':'");
            skip();
            map.put(key, value());
            skip();
            char next = s.charAt(i++);
            if (next == '}') return map;
            if (next != ',') throw error("expected ',' or '}'");
          }
        }
        case '[': {
          i++;
          List<Object> list = new ArrayList<>();
          skip();
          if (s.charAt(i) == ']') {
            i++;
            return list;
          }
          while (true) {
            skip();
            list.add(value());
            skip();
            char next = s.charAt(i++);
            if (next == ']') return list;
            if (next != ',') throw error("expected ',' or ']'");
          }
        }
        case '"':
          return string();
        case 't':
          return literal("true", Boolean.TRUE);
        case 'f':
          return literal("false", Boolean.FALSE);
        case 'n':
          return literal("null", null);
        default:
          return number();
      }
    }

    Object literal(String word, Object value) {
      if (!s.startsWith(word, i)) throw error("unexpected token");
      i += word.length();
      return value;
    }

    Object number() {
      int start = i;
      while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
      String text = s.substring(start, i);
      if (text.isEmpty()) throw error("unexpected character");
      if (text.matches("-?\\d+")) {
        try {
          return Long.parseLong(text);
        } catch (NumberFormatException e) {
          return Double.parseDouble(text);
        }
      }
      return Double.parseDouble(text);
    }

    String string() {
      StringBuilder sb = new StringBuilder();
      i++;
      while (true) {
        char c = s.charAt(i++);
        if (c == '"') return sb.toString();
        if (c != '\\') {
          sb.append(c);
          continue;
        }
        char e = s.charAt(i++);
        switch (e) {
          case 'n' -> sb.append('\n');
          case 'r' -> sb.append('\r');
          case 't' -> sb.append('\t');
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'u' -> {
            sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
            i += 4;
          }
          default -> sb.append(e);
        }
      }
    }
  }

  // Typed accessors used by the generated fromJson methods.

  @SuppressWarnings("unchecked")
  public static Map<String, Object> object(Object value) {
    return value == null ? null : (Map<String, Object>) value;
  }

  public static String string(Object value) {
    return value == null ? null : value.toString();
  }

  public static long longValue(Object value) {
    return value == null ? 0L : ((Number) value).longValue();
  }

  public static Long optLong(Object value) {
    return value == null ? null : ((Number) value).longValue();
  }

  public static double doubleValue(Object value) {
    return value == null ? 0.0 : ((Number) value).doubleValue();
  }

  public static Double optDouble(Object value) {
    return value == null ? null : ((Number) value).doubleValue();
  }

  public static boolean boolValue(Object value) {
    return value != null && (Boolean) value;
  }

  public static Boolean optBool(Object value) {
    return (Boolean) value;
  }

  public static <T> List<T> list(Object value, Function<Object, T> item) {
    if (value == null) return null;
    List<T> out = new ArrayList<>();
    for (Object o : (List<?>) value) out.add(item.apply(o));
    return java.util.Collections.unmodifiableList(out);
  }

  public static <T> Map<String, T> map(Object value, Function<Object, T> item) {
    if (value == null) return null;
    Map<String, T> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : object(value).entrySet()) out.put(e.getKey(), item.apply(e.getValue()));
    return out;
  }
}
