package com.paymentsservice.sdk;

import java.util.List;
import java.util.Map;

/**
 * The base of every exception the SDK throws (unchecked). The subclass tells what to do:
 * fix the input named by {@link #getParam()} (InvalidRequestError), retry later
 * (RateLimitError), and so on.
 */
public class PaymentsError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String type;
  private final String code;
  private final String param;
  private final String declineCode;
  private final Integer statusCode;
  private final String requestId;
  private final Map<String, List<String>> headers;

  public PaymentsError(String message, String type, String code, String param, String declineCode, Integer statusCode, String requestId, Map<String, List<String>> headers, Throwable cause) {
    super(message, cause);
    this.type = type;
    this.code = code;
    this.param = param;
    this.declineCode = declineCode;
    this.statusCode = statusCode;
    this.requestId = requestId;
    this.headers = headers == null ? Map.of() : headers;
  }

  /** The contract's error.type, e.g. "invalid_request_error". */
  public String getType() { return type; }
  /** The contract's error.code, e.g. "parameter_missing". */
  public String getCode() { return code; }
  /** The offending input, dotted for nested ones ("card.number"). */
  public String getParam() { return param; }
  /** Why a card was declined (card errors only). */
  public String getDeclineCode() { return declineCode; }
  /** The HTTP status; null when no reply arrived. */
  public Integer getStatusCode() { return statusCode; }
  /** The Request-Id that finds the request in the service's logs. */
  public String getRequestId() { return requestId; }
  /** The reply's headers, names in lower case. */
  public Map<String, List<String>> getHeaders() { return headers; }

  /** The first value of a reply header (lower-case name), or null. */
  public String getHeader(String name) {
    List<String> values = headers.get(name.toLowerCase());
    return values == null || values.isEmpty() ? null : values.get(0);
  }
}
