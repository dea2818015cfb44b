package com.paymentsservice.sdk;

import java.util.LinkedHashMap;
import java.util.Map;

/** The base of every generated parameters class: the values set, by wire name, in the order they were set. */
public abstract class Params {
  protected final Map<String, Object> values = new LinkedHashMap<>();

  /** The parameters as sent: nested Params become maps. Unset ones are absent; ones set to null are sent as null. */
  public Map<String, Object> toMap() {
    Map<String, Object> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(k, v instanceof Params p ? p.toMap() : v));
    return out;
  }

  /** The members of params named in keys (an operation's query parameters). */
  static Map<String, Object> pick(Map<String, Object> params, String... keys) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String key : keys) if (params.containsKey(key)) out.put(key, params.get(key));
    return out;
  }

  /** The members of params not named in keys (an operation's body). */
  static Map<String, Object> omit(Map<String, Object> params, String... keys) {
    Map<String, Object> out = new LinkedHashMap<>(params);
    for (String key : keys) out.remove(key);
    return out;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + toMap();
  }
}
