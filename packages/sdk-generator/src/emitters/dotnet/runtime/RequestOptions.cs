#nullable enable
namespace Payments
{
    /// <summary>The client's options. Build one and pass it to <see cref="PaymentsClient"/>.</summary>
    public sealed class PaymentsClientOptions
    {
        /// <summary>Pins the API release (<c>YYYY-MM-DD</c>), sent as <c>Service-Version</c>; null: the account's default.</summary>
        public string? ApiVersion { get; set; }

        /// <summary>Milliseconds each attempt may take (default 30000).</summary>
        public int Timeout { get; set; } = RequestSender.DefaultTimeoutMs;

        /// <summary>Retries of connection errors, 409, 429 and 5xx (default 2).</summary>
        public int MaxNetworkRetries { get; set; } = RequestSender.DefaultMaxNetworkRetries;

        /// <summary>Where the service listens, without <c>/v1</c> (default <c>http://127.0.0.1:4242</c>).</summary>
        public string BaseUrl { get; set; } = RequestSender.DefaultBaseUrl;
    }

    /// <summary>Per-call overrides of the client's options.</summary>
    public sealed class RequestOptions
    {
        /// <summary>Reuse your own key to make a call safe to repeat across processes; by default one is generated per call.</summary>
        public string? IdempotencyKey { get; set; }

        public string? ApiVersion { get; set; }

        public int? Timeout { get; set; }

        public int? MaxNetworkRetries { get; set; }
    }
}
