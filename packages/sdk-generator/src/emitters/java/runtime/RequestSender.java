package com.paymentsservice.sdk;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Sends one API call: builds the request, retries it when that is safe and useful, and turns the
 * reply into parsed JSON or a typed exception.
 */
final class RequestSender {
  static final String DEFAULT_BASE_URL = "http://127.0.0.1:4242";
  static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(30_000);
  static final int DEFAULT_MAX_NETWORK_RETRIES = 2;
  private static final long INITIAL_RETRY_DELAY_MS = 500;
  private static final long MAX_RETRY_DELAY_MS = 5_000;
  /** A Retry-After longer than this is not waited for: the error goes to the caller instead. */
  private static final long MAX_RETRY_AFTER_MS = 60_000;

  private final String apiKey;
  private final String apiVersion;
  private final Duration timeout;
  private final int maxNetworkRetries;
  private final String baseUrl;
  private final HttpClient http;

  RequestSender(String apiKey, String apiVersion, Duration timeout, int maxNetworkRetries, String baseUrl, HttpClient http) {
    if (apiKey == null || apiKey.isBlank()) {
      throw new ConfigurationError("No API key given. Pass a secret (service_...) or restricted (rk_...) key, e.g. from an environment variable.", "api_key_missing", null);
    }
    // The server-side SDK holds secret and restricted keys; publishable keys belong in browsers.
    if (apiKey.startsWith("pk_")) {
      throw new ConfigurationError("A publishable key (pk_...) was given. This SDK is for servers and takes a secret (service_...) or restricted (rk_...) key; publishable keys are for the browser library.", "publishable_key_not_allowed", null);
    }
    this.apiKey = apiKey;
    this.apiVersion = apiVersion;
    this.timeout = timeout;
    this.maxNetworkRetries = maxNetworkRetries;
    this.baseUrl = baseUrl.replaceAll("/+$", "");
    this.http = http;
  }

  Object request(String method, String path, Map<String, Object> query, Map<String, Object> body, RequestOptions options) {
    RequestOptions o = options == null ? RequestOptions.DEFAULT : options;
    String version = o.apiVersion() != null ? o.apiVersion() : apiVersion;
    Duration attemptTimeout = o.timeout() != null ? o.timeout() : timeout;
    int maxRetries = o.maxNetworkRetries() != null ? o.maxNetworkRetries() : maxNetworkRetries;
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(baseUrl + path + Query.encode(query)))
        .timeout(attemptTimeout)
        .header("Authorization", "Bearer " + apiKey)
        .header("Accept", "application/json")
        .header("User-Agent", "payments-sdk-java/" + Version.SDK_VERSION);
    if (version != null) builder.header("Service-Version", version);
    if (method.equals("POST") || method.equals("PUT")) {
      // Generated once per call, before the first attempt, so every retry carries the same key and
      // the service runs the write at most once however many attempts reach it.
      builder.header("Idempotency-Key", o.idempotencyKey() != null ? o.idempotencyKey() : UUID.randomUUID().toString());
      builder.header("Content-Type", "application/json");
      builder.method(method, HttpRequest.BodyPublishers.ofString(Json.write(body == null ? Map.of() : body), StandardCharsets.UTF_8));
    } else {
      builder.method(method, HttpRequest.BodyPublishers.noBody());
    }
    HttpRequest request = builder.build();

    for (int attempt = 0; ; attempt++) {
      HttpResponse<String> reply = null;
      PaymentsError failure;
      try {
        reply = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (reply.statusCode() >= 200 && reply.statusCode() < 300) return reply.body().isEmpty() ? null : Json.parse(reply.body());
        failure = Errors.fromResponse(reply.statusCode(), parseBody(reply.body()), lowerCase(reply.headers().map()));
      } catch (HttpTimeoutException e) {
        failure = new ConnectionError("The request timed out after " + attemptTimeout.toMillis() + " ms (" + method + " " + path + ").", "timeout", e);
      } catch (IOException e) {
        failure = new ConnectionError("Could not reach the service at " + baseUrl + ": " + e + ".", "connection_failed", e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ConnectionError("Interrupted while waiting for the service.", "connection_failed", e);
      }
      if (attempt >= maxRetries || !shouldRetry(reply)) throw failure;
      try {
        Thread.sleep(retryDelayMs(attempt, reply));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw failure;
      }
    }
  }

  /** A path segment: an id escaped so it cannot change the path. */
  static String segment(String value) {
    return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Retry what may succeed on a second try: no reply, the same idempotency key still running (409), a rate limit (429), server faults (5xx). */
  private static boolean shouldRetry(HttpResponse<String> reply) {
    return reply == null || reply.statusCode() == 409 || reply.statusCode() == 429 || reply.statusCode() >= 500;
  }

  /** Capped exponential backoff with jitter (so many clients do not retry in step), or Retry-After. */
  private static long retryDelayMs(int attempt, HttpResponse<String> reply) {
    long backoff = Math.min(INITIAL_RETRY_DELAY_MS << Math.min(attempt, 20), MAX_RETRY_DELAY_MS);
    long delay = (long) (backoff * (0.5 + ThreadLocalRandom.current().nextDouble() * 0.5));
    if (reply != null) {
      try {
        double seconds = Double.parseDouble(reply.headers().firstValue("retry-after").orElse(""));
        if (seconds >= 0) delay = Math.max(delay, Math.min((long) (seconds * 1000), MAX_RETRY_AFTER_MS));
      } catch (NumberFormatException ignored) {
        // No usable Retry-After: the backoff stands.
      }
    }
    return delay;
  }

  private static Object parseBody(String body) {
    try {
      return body == null || body.isEmpty() ? null : Json.parse(body);
    } catch (RuntimeException e) {
      return body;
    }
  }

  private static Map<String, List<String>> lowerCase(Map<String, List<String>> headers) {
    Map<String, List<String>> out = new TreeMap<>();
    headers.forEach((k, v) -> out.put(k.toLowerCase(), v));
    return out;
  }
}
