package com.paymentsservice.sdk;

/** No reply arrived: the connection failed or an attempt took longer than the timeout (code "timeout" or "connection_failed"). */
public class ConnectionError extends PaymentsError {
  private static final long serialVersionUID = 1L;

  public ConnectionError(String message, String code, Throwable cause) {
    super(message, "connection_error", code, null, null, null, null, null, cause);
  }
}
