package com.paymentsservice.sdk;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Verifies deliveries: {@code Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">}, keyed with the endpoint's whsec_ secret. */
public final class Webhook {
  /** Deliveries older than this are refused, so a captured one cannot be replayed later. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

  private Webhook() {}

  /** Throws SignatureVerificationError unless a v1 signature matches the raw payload and t is within tolerance of now (zero: no age check). */
  public static void verifySignature(String payload, String header, String secret, Duration tolerance) {
    if (header == null || header.isEmpty()) throw fail("No Service-Signature header.");
    long timestamp = -1;
    List<String> signatures = new ArrayList<>();
    for (String part : header.split(",")) {
      String[] kv = part.trim().split("=", 2);
      if (kv.length != 2) continue;
      if (kv[0].equals("t")) {
        try {
          timestamp = Long.parseLong(kv[1]);
        } catch (NumberFormatException ignored) {
          // Reported below as malformed.
        }
      } else if (kv[0].equals("v1")) {
        signatures.add(kv[1]);
      }
    }
    if (timestamp < 0 || signatures.isEmpty()) throw fail("The Service-Signature header is malformed: expected t=<unix>,v1=<hex>.");
    byte[] expected = sign(payload, secret, timestamp).getBytes(StandardCharsets.US_ASCII);
    boolean matched = false;
    for (String s : signatures) matched |= MessageDigest.isEqual(expected, s.getBytes(StandardCharsets.US_ASCII));
    if (!matched) throw fail("No signature matches the payload. Check the endpoint secret and that the body is the raw one.");
    long age = Instant.now().getEpochSecond() - timestamp;
    if (!tolerance.isZero() && Math.abs(age) > tolerance.getSeconds()) {
      throw fail("The signature's timestamp is " + age + " s old, outside the " + tolerance.getSeconds() + " s tolerance.");
    }
  }

  /** A valid header for a payload, for testing your webhook handler. */
  public static String generateTestHeader(String payload, String secret, Instant at) {
    return "t=" + at.getEpochSecond() + ",v1=" + sign(payload, secret, at.getEpochSecond());
  }

  private static SignatureVerificationError fail(String message) {
    return new SignatureVerificationError(message, null, null);
  }

  private static String sign(String payload, String secret, long timestamp) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal((timestamp + "." + payload).getBytes(StandardCharsets.UTF_8)));
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
