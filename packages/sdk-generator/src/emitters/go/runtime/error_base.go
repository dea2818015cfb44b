package payments

import (
	"fmt"
	"net/http"
)

// Error is what every typed error of the SDK holds. Match the kind with errors.As on the typed
// errors (*InvalidRequestError, *RateLimitError, ...); every one of them also unwraps to *Error.
type Error struct {
	// Type is the contract's error.type, e.g. "invalid_request_error".
	Type string
	// Code is the contract's error.code, e.g. "parameter_missing".
	Code string
	// Message says what went wrong, for people.
	Message string
	// Param names the offending input, dotted for nested ones ("card.number").
	Param string
	// DeclineCode says why a card was declined (card errors only).
	DeclineCode string
	// StatusCode is the HTTP status; 0 when no reply arrived.
	StatusCode int
	// RequestID finds the request in the service's logs.
	RequestID string
	// Header holds the reply's headers (Retry-After, ...).
	Header http.Header
	// Cause is the network error behind a ConnectionError.
	Cause error
}

func (e *Error) Error() string {
	msg := e.Message
	if e.Code != "" {
		msg = fmt.Sprintf("%s (%s", msg, e.Code)
		if e.Param != "" {
			msg += ", param " + e.Param
		}
		msg += ")"
	}
	if e.RequestID != "" {
		msg += " [" + e.RequestID + "]"
	}
	return msg
}

// ConnectionError means no reply arrived: the connection failed or an attempt took longer than
// the timeout (Code "timeout" or "connection_failed").
type ConnectionError Error

func (e *ConnectionError) Error() string { return (*Error)(e).Error() }
func (e *ConnectionError) Unwrap() error { return (*Error)(e) }

// SignatureVerificationError means a webhook's Service-Signature does not match its payload, or is too old.
type SignatureVerificationError Error

func (e *SignatureVerificationError) Error() string { return (*Error)(e).Error() }
func (e *SignatureVerificationError) Unwrap() error { return (*Error)(e) }

// ConfigurationError means the client was built wrongly, e.g. with a publishable key.
type ConfigurationError Error

func (e *ConfigurationError) Error() string { return (*Error)(e).Error() }
func (e *ConfigurationError) Unwrap() error { return (*Error)(e) }
