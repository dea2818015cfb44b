package com.paymentsservice.sdk;

/** The client was built wrongly, e.g. with a publishable key. */
public class ConfigurationException extends PaymentsException {
  private static final long serialVersionUID = 1L;

  public ConfigurationException(String message, String code, Throwable cause) {
    super(message, "configuration_error", code, null, null, null, null, null, cause);
  }
}
