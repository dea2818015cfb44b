package com.paymentsservice.sdk;

/** The client was built wrongly, e.g. with a publishable key. */
public class ConfigurationError extends PaymentsError {
  private static final long serialVersionUID = 1L;

  public ConfigurationError(String message, String code, Throwable cause) {
    super(message, "configuration_error", code, null, null, null, null, null, cause);
  }
}
