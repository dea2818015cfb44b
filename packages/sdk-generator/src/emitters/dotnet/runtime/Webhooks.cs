#nullable enable
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace Payments
{
    /// <summary>
    /// Verifies webhook deliveries: <c>Service-Signature: t=&lt;unix&gt;,v1=&lt;hex HMAC-SHA256 of "t.body"&gt;</c>
    /// keyed with the endpoint's <c>whsec_...</c> secret.
    /// </summary>
    public static partial class Webhooks
    {
        /// <summary>Events older than this (seconds) are refused, so a captured delivery cannot be replayed later.</summary>
        public const int DefaultTolerance = 300;

        private const string Scheme = "v1";

        /// <summary>Checks the signature and age of a delivery and returns its decoded JSON object.</summary>
        public static IDictionary<string, object?> VerifyAndParse(string payload, string? header, string secret, int tolerance = DefaultTolerance)
        {
            VerifySignature(payload, header, secret, tolerance);
            object? data;
            try { data = Json.Parse(payload); }
            catch (FormatException err) { throw new SignatureVerificationError("The webhook payload is not JSON.", err); }
            var map = data as IDictionary<string, object?>;
            if (map == null) throw new SignatureVerificationError("The webhook payload is not a JSON object.");
            return map;
        }

        /// <summary>Throws unless some <c>v1</c> signature matches and <c>t</c> is within <paramref name="tolerance"/> seconds of now.</summary>
        public static void VerifySignature(string payload, string? header, string secret, int tolerance = DefaultTolerance)
        {
            if (string.IsNullOrEmpty(header)) throw new SignatureVerificationError("No Service-Signature header.");
            long? timestamp = null;
            var signatures = new List<string>();
            foreach (var part in header.Split(','))
            {
                var pair = part.Trim().Split(new[] { '=' }, 2);
                if (pair.Length != 2) continue;
                long t;
                if (pair[0] == "t" && long.TryParse(pair[1], NumberStyles.None, CultureInfo.InvariantCulture, out t)) timestamp = t;
                else if (pair[0] == Scheme) signatures.Add(pair[1]);
            }
            if (timestamp == null || signatures.Count == 0)
                throw new SignatureVerificationError("The Service-Signature header is malformed: expected t=<unix>,v1=<hex>.");
            var expected = Sign(payload, secret, timestamp.Value);
            var matches = false;
            foreach (var s in signatures) matches |= FixedTimeEquals(expected, s);
            if (!matches) throw new SignatureVerificationError("No signature matches the payload. Check the endpoint secret and that the body is the raw one.");
            var age = DateTimeOffset.UtcNow.ToUnixTimeSeconds() - timestamp.Value;
            if (tolerance > 0 && Math.Abs(age) > tolerance)
                throw new SignatureVerificationError($"The signature's timestamp is {age} s old, outside the {tolerance} s tolerance.");
        }

        /// <summary>Builds a valid header for a payload, for testing your webhook handler.</summary>
        public static string GenerateTestHeader(string payload, string secret, long? timestamp = null)
        {
            var t = timestamp ?? DateTimeOffset.UtcNow.ToUnixTimeSeconds();
            return "t=" + t.ToString(CultureInfo.InvariantCulture) + "," + Scheme + "=" + Sign(payload, secret, t);
        }

        private static string Sign(string payload, string secret, long timestamp)
        {
            using (var hmac = new HMACSHA256(Encoding.UTF8.GetBytes(secret)))
            {
                var hash = hmac.ComputeHash(Encoding.UTF8.GetBytes(timestamp.ToString(CultureInfo.InvariantCulture) + "." + payload));
                var sb = new StringBuilder(hash.Length * 2);
                foreach (var b in hash) sb.Append(b.ToString("x2", CultureInfo.InvariantCulture));
                return sb.ToString();
            }
        }

        private static bool FixedTimeEquals(string a, string b)
        {
            if (a.Length != b.Length) return false;
            var diff = 0;
            for (var i = 0; i < a.Length; i++) diff |= a[i] ^ b[i];
            return diff == 0;
        }
    }
}
