package com.paymentsservice.sdk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;

/**
 * One page of a list endpoint ({@link #data()}, {@link #hasMore()}, {@link #url()}). {@link #autoPaging()}
 * walks every item across pages: {@code for (Payment p : client.payments().list(params).autoPaging())}.
 */
public final class Page<T> {
  private final List<T> data;
  private final boolean hasMore;
  private final String url;
  private final Function<Map<String, Object>, Page<T>> fetch;
  private final Map<String, Object> params;
  private final Function<T, String> id;

  Page(Object json, Function<Object, T> item, Function<T, String> id, Function<Map<String, Object>, Page<T>> fetch, Map<String, Object> params) {
    Map<String, Object> m = Json.object(json);
    List<T> items = Json.list(m.get("data"), item);
    this.data = items == null ? List.of() : items;
    this.hasMore = Json.boolValue(m.get("has_more"));
    this.url = Json.string(m.get("url"));
    this.fetch = fetch;
    this.params = params;
    this.id = id;
  }

  static <T> Page<T> fetch(RequestSender sender, String path, Map<String, Object> params, RequestOptions options, Function<Object, T> item, Function<T, String> id) {
    Map<String, Object> query = params == null ? Map.of() : params;
    return new Page<>(sender.request("GET", path, query, null, options), item, id, next -> fetch(sender, path, next, options, item, id), query);
  }

  public List<T> data() { return data; }
  public boolean hasMore() { return hasMore; }
  public String url() { return url; }

  /** Every item from this page on, fetching the next pages as the iteration reaches them (ending_before: towards newer ones). */
  public Iterable<T> autoPaging() {
    return () -> new Iterator<T>() {
      final boolean backwards = params.get("ending_before") != null;
      Page<T> page = Page.this;
      Iterator<T> items = ordered(page);

      private Iterator<T> ordered(Page<T> p) {
        List<T> list = new ArrayList<>(p.data);
        if (backwards) Collections.reverse(list);
        return list.iterator();
      }

      @Override
      public boolean hasNext() {
        while (!items.hasNext()) {
          if (!page.hasMore || page.data.isEmpty()) return false;
          Map<String, Object> next = new LinkedHashMap<>(params);
          next.remove("starting_after");
          next.remove("ending_before");
          if (backwards) next.put("ending_before", id.apply(page.data.get(0)));
          else next.put("starting_after", id.apply(page.data.get(page.data.size() - 1)));
          page = fetch.apply(next);
          items = ordered(page);
        }
        return true;
      }

      @Override
      public T next() {
        if (!hasNext()) throw new NoSuchElementException();
        return items.next();
      }
    };
  }
}
