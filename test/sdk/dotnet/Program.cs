// The .NET SDK against the real service (test/sdk/dotnet/dotnet.test.ts starts it and passes URLs and
// keys in the environment). Compiled with Mono's mcs (C# 7). Prints `ok <check>` per check; any failure exits 1.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading.Tasks;
using Payments;

public static class Program
{
    private static string Env(string name)
    {
        var value = Environment.GetEnvironmentVariable(name);
        if (string.IsNullOrEmpty(value)) throw new Exception("missing environment variable " + name);
        return value;
    }

    private static void Check(bool condition, string what)
    {
        if (!condition) throw new Exception(what);
    }

    private static async Task<T> Expect<T>(Func<Task> call) where T : Exception
    {
        try
        {
            await call();
        }
        catch (Exception e)
        {
            var typed = e as T;
            if (typed == null) throw new Exception("expected " + typeof(T).Name + ", got " + e.GetType().Name + ": " + e.Message);
            return typed;
        }
        throw new Exception("expected " + typeof(T).Name + ", nothing was thrown");
    }

    private static PaymentsClient Client(string key, string url, int? retries = null, int? timeout = null, string apiVersion = null)
    {
        var options = new PaymentsClientOptions { BaseUrl = url, ApiVersion = apiVersion };
        if (retries.HasValue) options.MaxNetworkRetries = retries.Value;
        if (timeout.HasValue) options.Timeout = timeout.Value;
        return new PaymentsClient(key, options);
    }

    private static async Task<string> Card(PaymentsClient client, string number)
    {
        var token = await client.Tokens.CreateAsync(new TokensCreateParams
        {
            Card = new TokensCreateCardParams { Number = number, ExpMonth = 12, ExpYear = 2030, Cvc = "123" },
        });
        return token.Id;
    }

    public static int Main()
    {
        return MainAsync().GetAwaiter().GetResult();
    }

    private static async Task<int> MainAsync()
    {
        var baseUrl = Env("PAYMENTS_BASE_URL");
        var secret = Env("PAYMENTS_SECRET_KEY");
        var client = Client(secret, baseUrl);
        Customer customer = null;

        var checks = new List<KeyValuePair<string, Func<Task>>>();
        Action<string, Func<Task>> add = (name, run) => checks.Add(new KeyValuePair<string, Func<Task>>(name, run));

        add("customer created", async () =>
        {
            customer = await client.Customers.CreateAsync(new CustomersCreateParams
            {
                Email = "jenny@example.com",
                Name = "Jenny Rosen",
                Metadata = new Dictionary<string, string> { { "order", "6735" } },
            });
            Check(customer.Id.StartsWith("cus_"), "customer id");
            Check(customer.Metadata["order"] == "6735", "metadata");
            Check((await client.Customers.RetrieveAsync(customer.Id)).Email == "jenny@example.com", "retrieve");
        });
        add("payment confirmed", async () =>
        {
            var payment = await client.Payments.CreateAsync(new PaymentsCreateParams
            {
                Amount = 2000, Currency = "USD", Customer = customer.Id, PaymentMethod = await Card(client, "4242424242424242"), Confirm = true,
            });
            Check(payment.Status == "succeeded", "status " + payment.Status);
            Check(payment.PaymentMethod != null && payment.PaymentMethod.Last4 == "4242", "card summary");
            var manual = await client.Payments.CreateAsync(new PaymentsCreateParams { Amount = 500, Currency = "USD", Customer = customer.Id, CaptureMethod = "manual" });
            manual = await client.Payments.ConfirmAsync(manual.Id, new PaymentsConfirmParams { PaymentMethod = await Card(client, "4242424242424242") });
            Check(manual.Status == "requires_capture", "manual status " + manual.Status);
            Check((await client.Payments.CaptureAsync(manual.Id, new PaymentsCaptureParams { AmountToCapture = 300 })).AmountReceived == 300, "partial capture");
        });
        add("pagination", async () =>
        {
            var ids = new List<string>();
            for (var i = 0; i < 3; i++)
                ids.Add((await client.Payments.CreateAsync(new PaymentsCreateParams { Amount = 100 + i, Currency = "EUR", Customer = customer.Id })).Id);
            var page = await client.Payments.ListAsync(new PaymentsListParams { Customer = customer.Id, Limit = 2 });
            Check(page.Data.Count == 2 && page.HasMore, "first page has 2 and more");
            var all = (await page.AutoPagingToListAsync(100)).Select(p => p.Id).ToList();
            ids.Reverse();
            Check(all.Count == 5 && all.Take(3).SequenceEqual(ids), "newest first across pages: " + string.Join(",", all));
            var created = await client.Payments.ListAsync(new PaymentsListParams
            {
                Customer = customer.Id,
                Created = new Dictionary<string, object> { { "gte", 0L } },
                Limit = 1,
            });
            Check(created.Data.Count == 1, "deepObject filter");
        });
        add("invalid_request_error", async () =>
        {
            var e = await Expect<InvalidRequestError>(() => client.Payments.CreateAsync(new PaymentsCreateParams { Amount = 2000, Currency = "usd", Customer = customer.Id }));
            Check(e.Param == "currency" && e.StatusCode == 400 && e.RequestId != null && e.RequestId.StartsWith("req_"), "param " + e.Param);
            var missing = await Expect<InvalidRequestError>(() => client.Payments.RetrieveAsync("pay_doesnotexist"));
            Check(missing.StatusCode == 404 && missing.Code == "resource_missing", "resource_missing");
        });
        add("authentication_error", async () =>
        {
            var bad = Client("service_test_" + new string('x', 40), baseUrl);
            var e = await Expect<AuthenticationError>(() => bad.Customers.ListAsync());
            Check(e.StatusCode == 401 && e.Code == "api_key_invalid", "code " + e.Code);
        });
        add("permission_error", async () =>
        {
            var restricted = Client(Env("PAYMENTS_RESTRICTED_KEY"), baseUrl);
            await restricted.Customers.ListAsync(new CustomersListParams { Limit = 1 });
            var e = await Expect<PermissionError>(() => restricted.Payments.ListAsync());
            Check(e.StatusCode == 403 && e.Code == "insufficient_scope", "code " + e.Code);
        });
        add("idempotency_error", async () =>
        {
            var key = "dotnet-program-" + Guid.NewGuid();
            await client.Customers.CreateAsync(new CustomersCreateParams { Name = "First" }, new RequestOptions { IdempotencyKey = key });
            var e = await Expect<IdempotencyError>(() => client.Customers.CreateAsync(new CustomersCreateParams { Name = "Second" }, new RequestOptions { IdempotencyKey = key }));
            Check(e.Code == "idempotency_key_reused", "code " + e.Code);
        });
        add("card_error", async () =>
        {
            var token = await Card(client, "4000000000000002");
            var e = await Expect<CardError>(() => client.Payments.CreateAsync(new PaymentsCreateParams { Amount = 2000, Currency = "USD", Customer = customer.Id, PaymentMethod = token, Confirm = true }));
            Check(e.StatusCode == 402 && e.Code == "card_declined" && e.DeclineCode == "generic_decline", "code " + e.Code + "/" + e.DeclineCode);
        });
        add("rate_limit_error", async () =>
        {
            var stub = Client(secret, Env("RATE_LIMITED_URL"), retries: 0);
            var e = await Expect<RateLimitError>(() => stub.Customers.ListAsync());
            Check(e.StatusCode == 429 && e.RequestId == "req_stub429", "rate limit fields");
        });
        add("api_error", async () =>
        {
            var stub = Client(secret, Env("SERVER_ERROR_URL"), retries: 0);
            var e = await Expect<APIError>(() => stub.Customers.ListAsync());
            Check(e.StatusCode == 500, "api error status");
        });
        add("retry-after honoured", async () =>
        {
            var stub = Client(secret, Env("RETRY_AFTER_URL"), apiVersion: Env("PAYMENTS_API_VERSION"));
            var watch = Stopwatch.StartNew();
            var created = await stub.Customers.CreateAsync(new CustomersCreateParams { Name = "Stub" });
            Check(created.Id == "cus_stub", "the retry succeeded");
            Check(watch.ElapsedMilliseconds >= 950, "waited " + watch.ElapsedMilliseconds + " ms for Retry-After: 1");
        });
        add("timeout", async () =>
        {
            var slow = Client(secret, Env("SLOW_PROXY_URL"), retries: 0, timeout: 200);
            var watch = Stopwatch.StartNew();
            var e = await Expect<ConnectionError>(() => slow.Customers.ListAsync());
            Check(e.Code == "timeout" && e.StatusCode == null, "code " + e.Code);
            Check(watch.ElapsedMilliseconds < 1500, "gave up at the timeout");
        });
        add("webhook verified", () =>
        {
            var evt = Webhooks.ConstructEvent(Env("WEBHOOK_PAYLOAD"), Env("WEBHOOK_SIGNATURE"), Env("WEBHOOK_SECRET"));
            Check(evt.Id == "evt_program" && evt.Type == "payment.succeeded", "event");
            return Task.FromResult(0);
        });
        add("webhook tampered refused", async () =>
        {
            var payload = Env("WEBHOOK_PAYLOAD");
            var header = Env("WEBHOOK_SIGNATURE");
            var whsec = Env("WEBHOOK_SECRET");
            await Expect<SignatureVerificationError>(() => Task.Run(() => Webhooks.ConstructEvent(payload + " ", header, whsec)));
            await Expect<SignatureVerificationError>(() => Task.Run(() => Webhooks.ConstructEvent(payload, header, "whsec_wrong")));
            await Expect<SignatureVerificationError>(() => Task.Run(() => Webhooks.ConstructEvent(payload, null, whsec)));
            var old = Webhooks.GenerateTestHeader(payload, whsec, DateTimeOffset.UtcNow.ToUnixTimeSeconds() - 600);
            await Expect<SignatureVerificationError>(() => Task.Run(() => Webhooks.ConstructEvent(payload, old, whsec)));
        });
        add("dropped connection retried", async () =>
        {
            var proxied = Client(secret, Env("DROP_PROXY_URL"), retries: 2);
            var payment = await proxied.Payments.CreateAsync(new PaymentsCreateParams { Amount = 1500, Currency = "EUR", Customer = customer.Id, Description = "dropped once" });
            var all = await (await client.Payments.ListAsync(new PaymentsListParams { Customer = customer.Id, Limit = 100 })).AutoPagingToListAsync(1000);
            var same = all.Where(p => p.Description == "dropped once").ToList();
            Check(same.Count == 1 && same[0].Id == payment.Id, "exactly one payment was created");
        });

        var failed = false;
        foreach (var check in checks)
        {
            try
            {
                await check.Value();
                Console.WriteLine("ok " + check.Key);
            }
            catch (Exception e)
            {
                failed = true;
                Console.WriteLine("not ok " + check.Key + ": " + e.GetType().Name + ": " + e.Message);
            }
        }
        return failed ? 1 : 0;
    }
}
