package com.paymentsservice.sdk;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Encodes query parameters the way the service parses them: name=value, name[key]=value (deepObject), name[]=value. */
final class Query {
  private Query() {}

  static String encode(Map<String, Object> params) {
    if (params == null || params.isEmpty()) return "";
    List<String> pairs = new ArrayList<>();
    params.forEach((name, value) -> add(pairs, name, value));
    return pairs.isEmpty() ? "" : "?" + String.join("&", pairs);
  }

  private static void add(List<String> pairs, String name, Object value) {
    if (value == null) return;
    if (value instanceof Params p) value = p.toMap();
    if (value instanceof Map<?, ?> map) {
      map.forEach((k, v) -> add(pairs, name + "[" + k + "]", v));
    } else if (value instanceof Iterable<?> list) {
      for (Object item : list) add(pairs, name + "[]", item);
    } else {
      pairs.add(URLEncoder.encode(name, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(String.valueOf(value), StandardCharsets.UTF_8));
    }
  }
}
