#nullable enable
using System;
using System.Collections.Generic;

namespace Payments
{
    /// <summary>
    /// The base of every error the SDK throws. Catching a subclass tells what to do: fix the
    /// request (InvalidRequestError), retry later (RateLimitError), and so on.
    /// </summary>
    public class PaymentsError : Exception
    {
        public PaymentsError(string message, string type, string? code = null, string? param = null, string? declineCode = null,
            int? statusCode = null, string? requestId = null, IReadOnlyDictionary<string, string>? headers = null, Exception? inner = null)
            : base(message, inner)
        {
            Type = type;
            Code = code;
            Param = param;
            DeclineCode = declineCode;
            StatusCode = statusCode;
            RequestId = requestId;
            Headers = headers ?? new Dictionary<string, string>();
        }

        /// <summary>The contract's <c>error.type</c>, e.g. <c>invalid_request_error</c>.</summary>
        public string Type { get; }

        /// <summary>The contract's <c>error.code</c>, e.g. <c>parameter_missing</c>.</summary>
        public string? Code { get; }

        /// <summary>The offending input, dotted for nested ones (<c>card.number</c>).</summary>
        public string? Param { get; }

        /// <summary>Why a card was declined (card errors only).</summary>
        public string? DeclineCode { get; }

        /// <summary>The HTTP status; null when no response arrived.</summary>
        public int? StatusCode { get; }

        /// <summary>The <c>Request-Id</c> that finds the request in the service's logs.</summary>
        public string? RequestId { get; }

        /// <summary>The response headers, lower-case names.</summary>
        public IReadOnlyDictionary<string, string> Headers { get; }
    }

    /// <summary>No response: the connection failed or the request took longer than the timeout.</summary>
    public class ConnectionError : PaymentsError
    {
        public ConnectionError(string message, string code, Exception? inner = null)
            : base(message, "connection_error", code, inner: inner) { }
    }

    /// <summary>A webhook's <c>Service-Signature</c> does not match its payload, or is too old.</summary>
    public class SignatureVerificationError : PaymentsError
    {
        public SignatureVerificationError(string message, Exception? inner = null)
            : base(message, "signature_verification_error", inner: inner) { }
    }

    /// <summary>The client was built wrongly, e.g. with a publishable key.</summary>
    public class ConfigurationError : PaymentsError
    {
        public ConfigurationError(string message, string code)
            : base(message, "configuration_error", code) { }
    }
}
