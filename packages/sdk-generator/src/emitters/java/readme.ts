import { GENERATED_NOTICE } from '../../emitter.js';
import type { ApiModel } from '../../model.js';
import { camelCase, pascalCase } from '../../naming.js';
import { flattenResources } from '../shared/objects.js';

export const JAVA_PACKAGE = 'com.paymentsservice.sdk';

const exception = (type: string) => `${pascalCase(type.replace(/_error$/, ''), { acronyms: true })}Error`;

/** README.md: install, quick start, options, errors, pagination, webhooks, every method. */
export function emitJavaReadme(model: ApiModel, version: string): string {
  const resources = flattenResources(model.resources).filter((r) => r.operations.length > 0);
  const errorRows = model.errorTypes.map(
    (t) =>
      `| \`${exception(t.type)}\` | \`${t.type}\` | ${t.statuses.join(', ') || '—'} | ${t.codes.map((c) => `\`${c.code}\``).join(', ')} |`,
  );
  const methods = resources.map(
    (r) =>
      `### ${r.path.join('.')}\n\n${r.operations
        .map(
          (op) =>
            `- \`client.${r.path.map((p) => `${camelCase(p)}()`).join('.')}.${camelCase(op.name)}(...)\` — ${op.summary ?? op.id} (\`${op.httpMethod.toUpperCase()} ${op.path}\`)`,
        )
        .join('\n')}`,
  );
  return `<!-- ${GENERATED_NOTICE} -->
# payments-java

The Java SDK for the payments service: package \`${JAVA_PACKAGE}\`.

- Version ${version}, for API releases ${model.versions.join(', ')} (records describe ${model.latestVersion}).
- Java 17 or newer; **JDK only** (\`java.net.http.HttpClient\`, its own small JSON reader), no dependencies.
- A builder for the client, a record for every object, a builder for every method's parameters, and unchecked
  typed exceptions (no \`throws\` clauses to carry around).
- Server-side: it takes a secret (\`service_live_...\`, \`service_test_...\`) or restricted (\`rk_...\`) key and
  refuses publishable keys (\`pk_...\`), which belong in browsers.

## Install

The SDK is plain sources under \`src/main/java\`; compile them into a jar with the JDK (no Maven downloads):

\`\`\`sh
cd sdks/java
javac -d build/classes $(find src/main/java -name '*.java')
jar --create --file build/payments-java-${version}.jar -C build/classes .
\`\`\`

and put \`build/payments-java-${version}.jar\` on your class path (or copy the sources into your build).

## Quick start

Start the service (\`npm start\` prints sandbox keys), put the secret test key in an environment variable, and run:

\`\`\`java
import ${JAVA_PACKAGE}.*;

public class QuickStart {
  public static void main(String[] args) {
    PaymentsClient client = PaymentsClient.builder(System.getenv("PAYMENTS_SECRET_KEY"))
        .baseUrl("http://127.0.0.1:4242")
        .build();

    Customer customer = client.customers().create(
        CustomersCreateParams.builder().email("jenny@example.com").name("Jenny Rosen").build());
    Payment payment = client.payments().create(
        PaymentsCreateParams.builder().amount(2000).currency("USD").customer(customer.id()).build());
    System.out.println(payment.id() + " " + payment.status());

    for (Payment p : client.payments().list(PaymentsListParams.builder().limit(10L).build()).autoPaging()) {
      System.out.println(p.id() + " " + p.amount() + " " + p.currency());
    }
  }
}
\`\`\`

## Options

\`PaymentsClient.builder(apiKey)\`:

| option | default | meaning |
|---|---|---|
| \`.apiVersion("YYYY-MM-DD")\` | the account's default version | Pins the API version, sent as \`Service-Version\`. One of ${model.versions.map((v) => `\`${v}\``).join(', ')}. |
| \`.timeout(Duration)\` | 30000 ms | How long each attempt may take before it is abandoned (then retried, or a \`ConnectionError\` with code \`timeout\`). |
| \`.maxNetworkRetries(int)\` | \`2\` | Retries after a connection error, timeout, \`409\`, \`429\` or \`5xx\`. \`0\` turns retries off. |
| \`.baseUrl(String)\` | \`http://127.0.0.1:4242\` | Where your service listens, without \`/v1\`. |
| \`.httpClient(HttpClient)\` | a new one | Proxies, TLS settings, executor. |

Every method has an overload taking \`RequestOptions\` last, for one call:

\`\`\`java
Payment payment = client.payments().create(params,
    RequestOptions.builder().idempotencyKey("order-6735").timeout(Duration.ofMinutes(1)).build());
\`\`\`

Parameters not set on a builder are left out of the request; setting one to \`null\` sends \`null\` (for example to clear
a customer's \`description\`).

### Retries and idempotency

Every POST carries an \`Idempotency-Key\`: yours, or a random one the SDK generates **once per call** and sends
again on each retry, so a payment is created once however many attempts reach the service. Retries wait with
exponential backoff (0.5 s doubling, at most 5 s) and jitter, or as long as \`Retry-After\` says (up to 60 s).

## Errors

Every exception is an unchecked \`PaymentsError\` with \`getType()\`, \`getCode()\`, \`getMessage()\`, \`getParam()\`,
\`getDeclineCode()\`, \`getStatusCode()\`, \`getRequestId()\` and \`getHeaders()\`; the class (one per \`error.type\`, named
the Java way) tells what to do:

| class | \`error.type\` | HTTP | codes |
|---|---|---|---|
${errorRows.join('\n')}
| \`ConnectionError\` | — | — | \`timeout\`, \`connection_failed\`: no reply (after the retries) |
| \`SignatureVerificationError\` | — | — | a webhook signature that does not match or is too old |
| \`ConfigurationError\` | — | — | \`api_key_missing\`, \`publishable_key_not_allowed\`: from \`build()\` |

\`\`\`java
try {
  client.payments().create(PaymentsCreateParams.builder().amount(2000).currency("usd").customer("cus_123").build());
} catch (InvalidRequestError e) {
  System.err.println("fix " + e.getParam() + ": " + e.getMessage());
} catch (RateLimitError e) {
  System.err.println("slow down and retry later");
}
\`\`\`

## Pagination

\`list(...)\` returns a \`Page<T>\` (\`data()\`, \`hasMore()\`, \`url()\`); \`autoPaging()\` is an \`Iterable<T>\` over every item
across pages (\`starting_after\` the last id; with \`endingBefore\` it walks towards newer objects):

\`\`\`java
Page<Payment> page = client.payments().list(PaymentsListParams.builder().limit(10L).status("succeeded").build());
for (Payment p : client.payments().list(PaymentsListParams.builder().limit(100L).build()).autoPaging()) {
  System.out.println(p.id());
}
\`\`\`

## Webhooks

Deliveries carry \`Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">\`, keyed with the endpoint's
\`whsec_...\` secret. \`PaymentsClient.constructEvent(payload, header, secret)\` checks the signature against the **raw**
body and that \`t\` is at most five minutes away, then returns the \`Event\`; otherwise it throws
\`SignatureVerificationError\`. \`Webhook.verifySignature(payload, header, secret, tolerance)\` takes another tolerance,
and \`Webhook.generateTestHeader(payload, secret, Instant.now())\` builds a valid header for your own tests.

\`\`\`java
Event event = PaymentsClient.constructEvent(rawBody, request.getHeader("Service-Signature"), System.getenv("WEBHOOK_SECRET"));
System.out.println(event.type() + " " + event.id());
\`\`\`

## API versions

Records describe the newest release (${model.latestVersion}). With an older \`apiVersion\` the service answers in that
release's shape (see \`GET /v1/versions\`), which may leave out or rename fields (they are then \`null\`).

## Methods

Each method takes the path ids, then the \`<Resource><Method>Params\` when the operation has parameters, then an
optional \`RequestOptions\`.

${methods.join('\n\n')}
`;
}
