import { GENERATED_NOTICE } from '../../emitter.js';
import type { ApiModel } from '../../model.js';
import { pascalCase } from '../../naming.js';
import { flattenResources } from '../shared/objects.js';

/** The module path; a checkout uses it through a `replace` directive. */
export const GO_MODULE = 'github.com/payments-service/payments-go';

const field = (name: string) => pascalCase(name, { acronyms: true });

/** README.md: install, quick start, options, errors, pagination, webhooks, every method. */
export function emitGoReadme(model: ApiModel, version: string): string {
  const resources = flattenResources(model.resources).filter((r) => r.operations.length > 0);
  const errorRows = model.errorTypes.map(
    (t) =>
      `| \`*payments.${field(t.type)}\` | \`${t.type}\` | ${t.statuses.join(', ') || '—'} | ${t.codes.map((c) => `\`${c.code}\``).join(', ')} |`,
  );
  const methods = resources.map(
    (r) =>
      `### ${r.path.join('.')}\n\n${r.operations
        .map((op) => {
          const call = `client.${r.path.map(field).join('.')}.${field(op.name)}`;
          return `- \`${call}\`${op.pagination ? ` / \`${field(op.name)}AutoPaging\`` : ''} — ${op.summary ?? op.id} (\`${op.httpMethod.toUpperCase()} ${op.path}\`)`;
        })
        .join('\n')}`,
  );
  return `<!-- ${GENERATED_NOTICE} -->
# payments-go

The Go SDK for the payments service: package \`payments\`, module \`${GO_MODULE}\`.

- Version ${version}, for API releases ${model.versions.join(', ')} (types describe ${model.latestVersion}).
- Go 1.19 or newer; **standard library only** (\`net/http\`): \`go.mod\` has no \`require\`.
- A \`context.Context\` on every call, errors as values (\`errors.As\` with the typed errors), an iterator type for
  lists (\`Next\` / \`Current\` / \`Err\`), typed structs for every object and every method's parameters.
- Server-side: it takes a secret (\`service_live_...\`, \`service_test_...\`) or restricted (\`rk_...\`) key and
  refuses publishable keys (\`pk_...\`), which belong in browsers.

## Install

From a checkout of the service repository, point your module at the SDK directory:

\`\`\`sh
go mod edit -require=${GO_MODULE}@v0.0.0 -replace=${GO_MODULE}=/path/to/repo/sdks/go
\`\`\`

## Quick start

Start the service (\`npm start\` prints sandbox keys), put the secret test key in an environment variable, and run:

\`\`\`go
package main

import (
	"context"
	"fmt"
	"log"
	"os"

	payments "${GO_MODULE}"
)

func main() {
	ctx := context.Background()
	client, err := payments.NewClient(os.Getenv("PAYMENTS_SECRET_KEY"), payments.WithBaseURL("http://127.0.0.1:4242"))
	if err != nil {
		log.Fatal(err)
	}
	customer, err := client.Customers.Create(ctx, &payments.CustomersCreateParams{Email: payments.String("jenny@example.com")})
	if err != nil {
		log.Fatal(err)
	}
	payment, err := client.Payments.Create(ctx, &payments.PaymentsCreateParams{Amount: 2000, Currency: "USD", Customer: customer.ID})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(payment.ID, payment.Status)

	it := client.Payments.ListAutoPaging(ctx, &payments.PaymentsListParams{Limit: payments.Int64(10)})
	for it.Next() {
		p := it.Current()
		fmt.Println(p.ID, p.Amount, p.Currency)
	}
	if err := it.Err(); err != nil {
		log.Fatal(err)
	}
}
\`\`\`

## Options

\`payments.NewClient(apiKey, opts...)\`:

| option | default | meaning |
|---|---|---|
| \`WithAPIVersion("YYYY-MM-DD")\` | the account's default version | Pins the API version, sent as \`Service-Version\`. One of ${model.versions.map((v) => `\`${v}\``).join(', ')}. |
| \`WithTimeout(d)\` | \`30 * time.Second\` | How long each attempt may take before it is abandoned (then retried, or a \`*ConnectionError\` with \`Code == "timeout"\`). |
| \`WithMaxNetworkRetries(n)\` | \`2\` | Retries after a connection error, timeout, \`409\`, \`429\` or \`5xx\`. \`0\` turns retries off. |
| \`WithBaseURL(url)\` | \`http://127.0.0.1:4242\` | Where your service listens, without \`/v1\`. |
| \`WithHTTPClient(c)\` | a new \`http.Client\` | Transport, proxies, TLS settings. |

Every method takes the same options as its last arguments for one call, plus \`WithIdempotencyKey(key)\`:

\`\`\`go
payment, err := client.Payments.Create(ctx, params, payments.WithIdempotencyKey("order-6735"), payments.WithTimeout(time.Minute))
\`\`\`

Cancelling \`ctx\` stops the call and its retries. Optional parameters are pointers (\`payments.String\`,
\`payments.Int64\`, \`payments.Bool\`) or nil slices and maps, left out of the request when nil; sending \`null\`
to clear a field is not possible from Go (send \`""\` where the API treats it as removal, e.g. a metadata value).

### Retries and idempotency

Every POST carries an \`Idempotency-Key\`: yours, or a random one the SDK generates **once per call** and sends
again on each retry, so a payment is created once however many attempts reach the service. Retries wait with
exponential backoff (0.5 s doubling, at most 5 s) and jitter, or as long as \`Retry-After\` says (up to 60 s).

## Errors

Every error the SDK returns for a reply or a network failure is one of the typed errors below; each is a
\`payments.Error\` (\`Type\`, \`Code\`, \`Message\`, \`Param\`, \`DeclineCode\`, \`StatusCode\`, \`RequestID\`, \`Header\`)
under its own type name, and unwraps to \`*payments.Error\`:

| type | \`error.type\` | HTTP | codes |
|---|---|---|---|
${errorRows.join('\n')}
| \`*payments.ConnectionError\` | — | — | \`timeout\`, \`connection_failed\`: no reply (after the retries) |
| \`*payments.SignatureVerificationError\` | — | — | a webhook signature that does not match or is too old |
| \`*payments.ConfigurationError\` | — | — | \`api_key_missing\`, \`publishable_key_not_allowed\`: from \`NewClient\` |

\`\`\`go
_, err := client.Payments.Create(ctx, &payments.PaymentsCreateParams{Amount: 2000, Currency: "usd", Customer: "cus_123"})
var invalid *payments.InvalidRequestError
var limited *payments.RateLimitError
switch {
case errors.As(err, &invalid):
	fmt.Printf("fix %s: %s\\n", invalid.Param, invalid.Message)
case errors.As(err, &limited):
	fmt.Println("slow down and retry later")
case err != nil:
	var base *payments.Error
	if errors.As(err, &base) {
		fmt.Println(base.StatusCode, base.Code, base.RequestID)
	}
}
\`\`\`

## Pagination

\`List\` returns one page (\`*payments.List[T]\` with \`Data\`, \`HasMore\`, \`URL\`). \`ListAutoPaging\` returns an
\`*payments.Iter[T]\` that walks every item across pages (\`starting_after\` the last id; with \`EndingBefore\` it
walks towards newer objects):

\`\`\`go
page, err := client.Payments.List(ctx, &payments.PaymentsListParams{Limit: payments.Int64(10), Status: payments.String("succeeded")})

it := client.Payments.ListAutoPaging(ctx, &payments.PaymentsListParams{Limit: payments.Int64(100)})
for it.Next() {
	fmt.Println(it.Current().ID)
}
if err := it.Err(); err != nil {
	log.Fatal(err)
}
\`\`\`

## Webhooks

Deliveries carry \`Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">\`, keyed with the endpoint's
\`whsec_...\` secret. \`payments.ConstructEvent(payload, header, secret, tolerance)\` checks the signature against the
**raw** body and that \`t\` is at most \`tolerance\` away (0: 5 minutes), then returns the \`*payments.Event\`;
otherwise a \`*payments.SignatureVerificationError\`. It needs no client.

\`\`\`go
http.HandleFunc("/webhooks", func(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	event, err := payments.ConstructEvent(body, r.Header.Get("Service-Signature"), os.Getenv("WEBHOOK_SECRET"), 0)
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	fmt.Println(event.Type, event.ID)
})
\`\`\`

\`payments.GenerateTestHeader(payload, secret, time.Now())\` builds a valid header for your own tests.

## API versions

Types describe the newest release (${model.latestVersion}). With an older \`WithAPIVersion\` the service answers in that
release's shape (see \`GET /v1/versions\`), which may leave out or rename fields.

## Methods

Every method takes \`ctx\` first, then the path ids, then \`*<Resource><Method>Params\` when the operation has
parameters, then options.

${methods.join('\n\n')}
`;
}
