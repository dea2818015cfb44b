import { GENERATED_NOTICE } from '../../emitter.js';
import type { ApiModel } from '../../model.js';
import { flattenResources, hasParams, names } from './code.js';

/** README.md: install, quick start, options, errors, pagination, webhooks, and every method. */
export function emitDotnetReadme(model: ApiModel, info: { name: string; version: string; description: string }): string {
  const C = names.client;
  const errorRows = model.errorTypes.map(
    (t) =>
      `| \`${names.errorClass(t.type)}\` | \`${t.type}\` | ${t.statuses.join(', ') || '—'} | ${t.codes.map((c) => `\`${c.code}\``).join(', ')} |`,
  );
  const methodRows = flattenResources(model.resources).flatMap((r) =>
    r.operations.map((op) => {
      const args = [...op.pathParams.map((p) => names.argument(p.name)), ...(hasParams(op) ? [`${names.params(op)}`] : [])];
      return `| \`${names.accessor(op)}.${names.method(op)}(${args.join(', ')})\` | \`${op.httpMethod.toUpperCase()} ${op.path}\` | ${op.summary ?? op.id} |`;
    }),
  );
  return `<!-- ${GENERATED_NOTICE} -->
# ${info.name} (.NET)

${info.description}

- Version ${info.version}, for API releases ${model.versions.join(', ')} (types describe ${model.latestVersion}).
- C# with \`async\`/\`Task\`, \`HttpClient\`, PascalCase members and nullable reference annotations (\`#nullable enable\`);
  no dependencies beyond the base class library (its own small JSON reader and writer).
- Targets .NET Standard 2.0 (.NET Framework 4.6.1+, .NET Core / .NET 5+, Mono). Builds with the .NET SDK
  (\`Payments.csproj\`, C# 8) or with Mono's \`mcs\` (C# 7) through \`build-mono.sh\`, which strips the nullable
  annotations into a temporary copy first.
- Server-side: it takes a secret (\`service_live_...\`, \`service_test_...\`) or restricted (\`rk_...\`) key and
  refuses publishable keys (\`pk_...\`), which belong in browsers.

## Install

From a checkout of the service repository (the package is not on NuGet):

\`\`\`sh
# .NET SDK: reference the project
dotnet add reference /path/to/payments-service/sdks/dotnet/Payments.csproj
# Mono: build Payments.dll and reference it
sh /path/to/payments-service/sdks/dotnet/build-mono.sh ./lib    # writes ./lib/Payments.dll
mcs -r:./lib/Payments.dll -r:System.Net.Http.dll Program.cs
\`\`\`

## Quick start

\`\`\`csharp
using System;
using System.Threading.Tasks;
using Payments;

public static class Program
{
    public static async Task Main()
    {
        var client = new ${C}(Environment.GetEnvironmentVariable("PAYMENTS_SECRET_KEY"),
            new PaymentsClientOptions { BaseUrl = "http://127.0.0.1:4242" });

        var customer = await client.Customers.CreateAsync(new CustomersCreateParams { Email = "jenny@example.com", Name = "Jenny Rosen" });
        var payment = await client.Payments.CreateAsync(new PaymentsCreateParams { Amount = 2000, Currency = "USD", Customer = customer.Id });
        Console.WriteLine($"{payment.Id} {payment.Status}");

        var page = await client.Payments.ListAsync(new PaymentsListParams { Limit = 10 });
        await page.AutoPagingEachAsync(p => { Console.WriteLine($"{p.Id} {p.Amount} {p.Currency}"); return true; });
    }
}
\`\`\`

(Mono's \`mcs\` has no \`async Main\`: call \`MainAsync().GetAwaiter().GetResult()\` from \`Main\`.)

## Options

\`new PaymentsClientOptions { ApiVersion = "${model.latestVersion}", Timeout = 30000, MaxNetworkRetries = 2, BaseUrl = "..." }\`:
\`ApiVersion\` is sent as \`Service-Version\` (default: the account's version), \`Timeout\` is milliseconds per attempt
(default 30000), \`MaxNetworkRetries\` defaults to 2. Per call, pass
\`new RequestOptions { IdempotencyKey = ..., ApiVersion = ..., Timeout = ..., MaxNetworkRetries = ... }\` and a
\`CancellationToken\`.

- Every POST carries an \`Idempotency-Key\` (a random GUID unless you pass one); retries of that call reuse it,
  so the service runs the write at most once.
- Connection failures, timeouts, \`409\` (same key still running), \`429\` and \`5xx\` are retried with exponential
  backoff and jitter; a \`Retry-After\` header is honoured.
- Every object keeps the decoded JSON in \`Raw\`, including fields newer than this SDK.

## Errors

Every error derives from \`Payments.PaymentsError\` (an \`Exception\`) with \`Type\`, \`Code\`, \`Param\`, \`DeclineCode\`,
\`StatusCode\`, \`RequestId\` and \`Message\`.

| class | \`error.type\` | HTTP | codes |
|---|---|---|---|
${errorRows.join('\n')}
| \`ConnectionError\` | — | — | \`connection_failed\`, \`timeout\` |

\`\`\`csharp
try
{
    await client.Payments.CreateAsync(new PaymentsCreateParams { Amount = 2000, Currency = "usd", Customer = customer.Id });
}
catch (InvalidRequestError e)
{
    Console.WriteLine($"Fix {e.Param}: {e.Message} ({e.RequestId})");
}
catch (CardError e)
{
    Console.WriteLine($"Declined: {e.DeclineCode}");
}
\`\`\`

## Pagination

A list method returns a \`ListPage<T>\` (\`Data\`, \`HasMore\`, \`Url\`); \`NextPageAsync()\` fetches the next one,
\`AutoPagingEachAsync(item => ...)\` walks every item across pages (return false to stop) and
\`AutoPagingToListAsync(100)\` collects some.

## Webhooks

\`\`\`csharp
try
{
    Event evt = Webhooks.ConstructEvent(rawBody, request.Headers["Service-Signature"], Environment.GetEnvironmentVariable("WEBHOOK_SECRET"));
    Console.WriteLine($"{evt.Type} {evt.Id}");
}
catch (SignatureVerificationError)
{
    // answer 400
}
\`\`\`

Signatures older than 300 seconds are refused (pass a tolerance to change it).

## Methods

| method | endpoint | |
|---|---|---|
${methodRows.join('\n')}

Response types describe API release ${model.latestVersion}; with an older \`ApiVersion\` some fields may be missing (null).
`;
}
