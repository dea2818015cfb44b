package com.paymentsservice.sdk;

import java.time.Duration;

/** Per-call overrides: {@code RequestOptions.builder().idempotencyKey("order-6735").build()}. */
public record RequestOptions(String idempotencyKey, String apiVersion, Duration timeout, Integer maxNetworkRetries) {
  public static final RequestOptions DEFAULT = new RequestOptions(null, null, null, null);

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder {
    private String idempotencyKey;
    private String apiVersion;
    private Duration timeout;
    private Integer maxNetworkRetries;

    /** Your own Idempotency-Key, to make a call safe to repeat across processes; by default one is generated per call. */
    public Builder idempotencyKey(String key) { this.idempotencyKey = key; return this; }
    public Builder apiVersion(String version) { this.apiVersion = version; return this; }
    public Builder timeout(Duration timeout) { this.timeout = timeout; return this; }
    public Builder maxNetworkRetries(int retries) { this.maxNetworkRetries = retries; return this; }

    public RequestOptions build() {
      return new RequestOptions(idempotencyKey, apiVersion, timeout, maxNetworkRetries);
    }
  }
}
