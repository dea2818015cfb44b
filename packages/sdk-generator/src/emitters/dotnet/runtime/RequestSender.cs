#nullable enable
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Net.Http;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace Payments
{
    /// <summary>
    /// Sends one API call with HttpClient: builds the request, retries it when that is safe and
    /// useful, and turns the reply into decoded JSON or a typed error.
    /// </summary>
    public sealed class RequestSender
    {
        public const string DefaultBaseUrl = "http://127.0.0.1:4242";
        public const int DefaultTimeoutMs = 30000;
        public const int DefaultMaxNetworkRetries = 2;
        private const int InitialRetryDelayMs = 500;
        private const int MaxRetryDelayMs = 5000;
        // A Retry-After longer than this is not waited for: the error goes to the caller instead.
        private const int MaxRetryAfterMs = 60000;

        // One HttpClient for the process: it pools connections. Timeouts are per attempt, by token.
        private static readonly HttpClient Http = new HttpClient { Timeout = System.Threading.Timeout.InfiniteTimeSpan };
        private static readonly Random Jitter = new Random();

        private readonly string apiKey;
        private readonly PaymentsClientOptions options;

        public RequestSender(string apiKey, PaymentsClientOptions options)
        {
            AssertServerKey(apiKey);
            this.apiKey = apiKey;
            this.options = options;
        }

        public async Task<object?> RequestAsync(string method, string path, IDictionary<string, object?>? query, IDictionary<string, object?>? body,
            RequestOptions? requestOptions, CancellationToken cancellationToken)
        {
            var apiVersion = requestOptions?.ApiVersion ?? options.ApiVersion;
            var timeout = requestOptions?.Timeout ?? options.Timeout;
            var maxRetries = requestOptions?.MaxNetworkRetries ?? options.MaxNetworkRetries;
            // Generated once per call, before the first attempt, so every retry carries the same key and
            // the service runs the write at most once however many attempts reach it.
            string? idempotencyKey = method == "POST" || method == "PUT" ? requestOptions?.IdempotencyKey ?? Guid.NewGuid().ToString() : null;
            string? payload = body != null || method == "POST" || method == "PUT" ? Json.Serialize(body ?? new Dictionary<string, object?>()) : null;
            var url = options.BaseUrl.TrimEnd('/') + path + EncodeQuery(query);

            for (var attempt = 0; ; attempt++)
            {
                Reply? reply = null;
                PaymentsError failure;
                try
                {
                    reply = await SendAsync(url, method, apiVersion, idempotencyKey, payload, timeout, cancellationToken).ConfigureAwait(false);
                    if (reply.Status >= 200 && reply.Status < 300) return reply.Body;
                    failure = ErrorFactory.FromResponse(reply.Status, reply.Body, reply.Headers);
                }
                catch (ConnectionError err)
                {
                    failure = err;
                }
                if (attempt >= maxRetries || !ShouldRetry(reply)) throw failure;
                await Task.Delay(RetryDelayMs(attempt, reply), cancellationToken).ConfigureAwait(false);
            }
        }

        /// <summary>Fetches a page of a list endpoint; the page fetches the ones after it with a cursor.</summary>
        public async Task<ListPage<T>> ListAsync<T>(string path, IDictionary<string, object?> query, RequestOptions? requestOptions,
            Func<IDictionary<string, object?>, T> read, Func<T, string?> idOf, CancellationToken cancellationToken) where T : class
        {
            var page = AsObject(await RequestAsync("GET", path, query, null, requestOptions, cancellationToken).ConfigureAwait(false));
            var data = Json.GetList(page, "data", item => read(item as IDictionary<string, object?> ?? new Dictionary<string, object?>())) ?? new List<T>();
            return new ListPage<T>(data, Json.GetBool(page, "has_more") ?? false, Json.GetString(page, "url"), query,
                (next, token) => ListAsync(path, next, requestOptions, read, idOf, token), idOf);
        }

        /// <summary>A decoded reply as an object (an empty one when the service answered something else).</summary>
        public static IDictionary<string, object?> AsObject(object? json) =>
            json as IDictionary<string, object?> ?? new Dictionary<string, object?>();

        /// <summary>The members of <paramref name="all"/> named in <paramref name="names"/> (an operation's query parameters).</summary>
        public static IDictionary<string, object?> Pick(IDictionary<string, object?> all, string[] names)
        {
            var result = new Dictionary<string, object?>();
            foreach (var pair in all) if (Array.IndexOf(names, pair.Key) >= 0) result[pair.Key] = pair.Value;
            return result;
        }

        /// <summary>The members of <paramref name="all"/> not named in <paramref name="names"/> (an operation's body).</summary>
        public static IDictionary<string, object?> Omit(IDictionary<string, object?> all, string[] names)
        {
            var result = new Dictionary<string, object?>();
            foreach (var pair in all) if (Array.IndexOf(names, pair.Key) < 0) result[pair.Key] = pair.Value;
            return result;
        }

        /// <summary>
        /// Encodes query parameters the way the service parses them: scalars as <c>name=value</c>,
        /// dictionaries as <c>name[key]=value</c> (OpenAPI deepObject), lists as <c>name[]=value</c>.
        /// </summary>
        public static string EncodeQuery(IDictionary<string, object?>? query)
        {
            if (query == null) return "";
            var pairs = new List<string>();
            foreach (var pair in query) AddQuery(pairs, pair.Key, pair.Value);
            return pairs.Count == 0 ? "" : "?" + string.Join("&", pairs);
        }

        private static void AddQuery(List<string> pairs, string name, object? value)
        {
            if (value == null) return;
            if (value is string s) { pairs.Add(Uri.EscapeDataString(name) + "=" + Uri.EscapeDataString(s)); return; }
            if (value is IDictionary map)
            {
                foreach (DictionaryEntry e in map) AddQuery(pairs, name + "[" + e.Key + "]", e.Value);
                return;
            }
            if (value is IEnumerable list)
            {
                foreach (var item in list) AddQuery(pairs, name + "[]", item);
                return;
            }
            var text = value is bool b ? (b ? "true" : "false") : Convert.ToString(value, CultureInfo.InvariantCulture) ?? "";
            pairs.Add(Uri.EscapeDataString(name) + "=" + Uri.EscapeDataString(text));
        }

        // The server-side SDK holds secret and restricted keys; publishable keys belong in browsers.
        private static void AssertServerKey(string apiKey)
        {
            if (string.IsNullOrWhiteSpace(apiKey))
                throw new ConfigurationError("No API key given. Pass a secret (service_...) or restricted (rk_...) key, e.g. from an environment variable.", "api_key_missing");
            if (apiKey.StartsWith("pk_", StringComparison.Ordinal))
                throw new ConfigurationError("A publishable key (pk_...) was given. This SDK is for servers and takes a secret (service_...) or restricted (rk_...) key; publishable keys are for the browser library.", "publishable_key_not_allowed");
        }

        // Retry what may succeed on a second try: no response at all, a request with the same
        // idempotency key still running (409), a rate limit (429) and server faults (5xx).
        private static bool ShouldRetry(Reply? reply) =>
            reply == null || reply.Status == 409 || reply.Status == 429 || reply.Status >= 500;

        // Capped exponential backoff with jitter (so many clients do not retry in step), or Retry-After.
        private static int RetryDelayMs(int attempt, Reply? reply)
        {
            var backoff = Math.Min(InitialRetryDelayMs * Math.Pow(2, attempt), MaxRetryDelayMs);
            double random;
            lock (Jitter) random = Jitter.NextDouble();
            var jittered = (int)(backoff * (0.5 + random * 0.5));
            string? retryAfter = null;
            double seconds;
            if (reply != null && reply.Headers.TryGetValue("retry-after", out retryAfter)
                && double.TryParse(retryAfter, NumberStyles.Float, CultureInfo.InvariantCulture, out seconds) && seconds >= 0)
                return Math.Max(jittered, (int)Math.Min(seconds * 1000, MaxRetryAfterMs));
            return jittered;
        }

        private async Task<Reply> SendAsync(string url, string method, string? apiVersion, string? idempotencyKey, string? payload, int timeout,
            CancellationToken cancellationToken)
        {
            var request = new HttpRequestMessage(new HttpMethod(method), url);
            request.Headers.TryAddWithoutValidation("Authorization", "Bearer " + apiKey);
            request.Headers.TryAddWithoutValidation("Accept", "application/json");
            request.Headers.TryAddWithoutValidation("User-Agent", "payments-sdk-dotnet/" + SdkVersion.Sdk);
            if (apiVersion != null) request.Headers.TryAddWithoutValidation("Service-Version", apiVersion);
            if (idempotencyKey != null) request.Headers.TryAddWithoutValidation("Idempotency-Key", idempotencyKey);
            if (payload != null) request.Content = new StringContent(payload, Encoding.UTF8, "application/json");

            var timer = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timer.CancelAfter(timeout);
            try
            {
                var response = await Http.SendAsync(request, timer.Token).ConfigureAwait(false);
                var text = await response.Content.ReadAsStringAsync().ConfigureAwait(false);
                var headers = new Dictionary<string, string>();
                foreach (var h in response.Headers.Concat(response.Content.Headers))
                    headers[h.Key.ToLowerInvariant()] = string.Join(", ", h.Value);
                object? body = null;
                if (text.Length > 0)
                {
                    try { body = Json.Parse(text); }
                    catch (FormatException) { body = text; }
                }
                return new Reply((int)response.StatusCode, headers, body);
            }
            catch (OperationCanceledException err) when (!cancellationToken.IsCancellationRequested)
            {
                throw new ConnectionError($"The request timed out after {timeout} ms ({method} {new Uri(url).AbsolutePath}).", "timeout", err);
            }
            catch (HttpRequestException err)
            {
                throw new ConnectionError($"Could not reach the service at {new Uri(url).GetLeftPart(UriPartial.Authority)}: {err.Message}.", "connection_failed", err);
            }
            catch (System.IO.IOException err)
            {
                throw new ConnectionError($"Could not reach the service at {new Uri(url).GetLeftPart(UriPartial.Authority)}: {err.Message}.", "connection_failed", err);
            }
            finally
            {
                timer.Dispose();
                request.Dispose();
            }
        }

        private sealed class Reply
        {
            public Reply(int status, Dictionary<string, string> headers, object? body)
            {
                Status = status;
                Headers = headers;
                Body = body;
            }

            public int Status { get; }
            public Dictionary<string, string> Headers { get; }
            public object? Body { get; }
        }
    }
}
