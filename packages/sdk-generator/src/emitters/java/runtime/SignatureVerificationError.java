package com.paymentsservice.sdk;

/** A webhook's Service-Signature does not match its payload, or is too old. */
public class SignatureVerificationError extends PaymentsError {
  private static final long serialVersionUID = 1L;

  public SignatureVerificationError(String message, String code, Throwable cause) {
    super(message, "signature_verification_error", code, null, null, null, null, null, cause);
  }
}
