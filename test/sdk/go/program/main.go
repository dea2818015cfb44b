// The Go SDK against the real service (started by go.test.ts, which passes URLs and keys through
// the environment). Prints `ok <check>` per check; any failure exits non-zero.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	payments "github.com/payments-service/payments-go"
)

var ctx = context.Background()

func must[T any](v T, err error) T {
	if err != nil {
		fail("unexpected error: %v", err)
	}
	return v
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

func check(cond bool, format string, args ...interface{}) {
	if !cond {
		fail(format, args...)
	}
}

func ok(name string) { fmt.Println("ok " + name) }

// expect returns err as *T, failing unless errors.As finds one; every typed error also unwraps to *payments.Error.
func expect[T any](err error) *T {
	var typed *T
	if !errors.As(err, &typed) {
		fail("expected %T, got %T: %v", typed, err, err)
	}
	var base *payments.Error
	check(errors.As(err, &base), "%T does not unwrap to *payments.Error", err)
	return typed
}

func main() {
	env := os.Getenv
	base := env("PAYMENTS_BASE_URL")
	client := must(payments.NewClient(env("PAYMENTS_SECRET_KEY"), payments.WithBaseURL(base), payments.WithAPIVersion(payments.LatestAPIVersion)))
	token := func(number string) string {
		card := payments.TokensCreateParamsCard{Number: number, ExpMonth: 12, ExpYear: 2030, Cvc: "123"}
		return must(client.Tokens.Create(ctx, &payments.TokensCreateParams{Card: card})).ID
	}

	customer := must(client.Customers.Create(ctx, &payments.CustomersCreateParams{
		Email: payments.String("jenny@example.com"), Name: payments.String("Jenny Rosen"), Metadata: map[string]string{"order": "6735"},
	}))
	check(customer.Name != nil && *customer.Name == "Jenny Rosen", "customer name")
	check(must(client.Customers.Retrieve(ctx, customer.ID)).ID == customer.ID, "retrieve customer")
	ok("customer")

	payment := must(client.Payments.Create(ctx, &payments.PaymentsCreateParams{
		Amount: 2000, Currency: "USD", Customer: customer.ID, PaymentMethod: payments.String(token("4242424242424242")), Confirm: payments.Bool(true),
	}))
	check(payment.Status == "succeeded", "status %s", payment.Status)
	check(payment.PaymentMethod != nil && payment.PaymentMethod.Last4 == "4242", "card summary")
	ok("payment")

	created := []string{payment.ID}
	for i := 0; i < 2; i++ {
		p := must(client.Payments.Create(ctx, &payments.PaymentsCreateParams{Amount: int64(100 + i), Currency: "EUR", Customer: customer.ID}))
		created = append(created, p.ID)
	}
	page := must(client.Payments.List(ctx, &payments.PaymentsListParams{Customer: payments.String(customer.ID), Limit: payments.Int64(2)}))
	check(len(page.Data) == 2 && page.HasMore && page.URL == "/v1/payments", "first page %+v", page)
	var walked []string
	it := client.Payments.ListAutoPaging(ctx, &payments.PaymentsListParams{Customer: payments.String(customer.ID), Limit: payments.Int64(2)})
	for it.Next() {
		walked = append(walked, it.Current().ID)
	}
	check(it.Err() == nil, "iteration: %v", it.Err())
	check(fmt.Sprint(walked) == fmt.Sprint([]string{created[2], created[1], created[0]}), "walked %v", walked)
	ok("pagination")

	_, err := client.Payments.Create(ctx, &payments.PaymentsCreateParams{Amount: 2000, Currency: "usd", Customer: customer.ID})
	invalid := expect[payments.InvalidRequestError](err)
	check(invalid.Param == "currency" && invalid.StatusCode == 400 && invalid.RequestID != "", "invalid request %+v", invalid)
	ok("invalid_request_error")

	unknown := must(payments.NewClient(env("PAYMENTS_UNKNOWN_KEY"), payments.WithBaseURL(base)))
	_, err = unknown.Customers.List(ctx, nil)
	check(expect[payments.AuthenticationError](err).Code == "api_key_invalid", "authentication: %v", err)
	ok("authentication_error")

	restricted := must(payments.NewClient(env("PAYMENTS_RESTRICTED_KEY"), payments.WithBaseURL(base)))
	must(restricted.Customers.Retrieve(ctx, customer.ID))
	_, err = restricted.Payments.Create(ctx, &payments.PaymentsCreateParams{Amount: 100, Currency: "USD", Customer: customer.ID})
	check(expect[payments.PermissionError](err).Code == "insufficient_scope", "permission: %v", err)
	ok("permission_error")

	key := payments.WithIdempotencyKey(fmt.Sprintf("go-%d", time.Now().UnixNano()))
	must(client.Customers.Create(ctx, &payments.CustomersCreateParams{Name: payments.String("Once")}, key))
	_, err = client.Customers.Create(ctx, &payments.CustomersCreateParams{Name: payments.String("Twice")}, key)
	check(expect[payments.IdempotencyError](err).Code == "idempotency_key_reused", "idempotency: %v", err)
	ok("idempotency_error")

	_, err = client.Payments.Create(ctx, &payments.PaymentsCreateParams{
		Amount: 500, Currency: "USD", Customer: customer.ID, PaymentMethod: payments.String(token("4000000000000002")), Confirm: payments.Bool(true),
	})
	card := expect[payments.CardError](err)
	check(card.StatusCode == 402 && card.Code == "card_declined" && card.DeclineCode == "generic_decline", "card %+v", card)
	ok("card_error")

	limited := must(payments.NewClient("service_test_stub", payments.WithBaseURL(env("PAYMENTS_RATE_LIMIT_URL")), payments.WithMaxNetworkRetries(0)))
	_, err = limited.Account.Retrieve(ctx)
	rate := expect[payments.RateLimitError](err)
	check(rate.StatusCode == 429 && rate.Header.Get("Retry-After") == "0", "rate limit %+v", rate)
	started := time.Now()
	retrying := must(payments.NewClient("service_test_stub", payments.WithBaseURL(env("PAYMENTS_RATE_LIMIT_URL"))))
	account := must(retrying.Account.Retrieve(ctx))
	check(account.ID == "acct_stub" && time.Since(started) >= time.Second, "waited for Retry-After: 1")
	ok("rate_limit_error")

	failing := must(payments.NewClient("service_test_stub", payments.WithBaseURL(env("PAYMENTS_SERVER_ERROR_URL")), payments.WithMaxNetworkRetries(0)))
	_, err = failing.Account.Retrieve(ctx)
	apiErr := expect[payments.APIError](err)
	check(apiErr.StatusCode == 500 && apiErr.Code == "internal_error", "api error %+v", apiErr)
	ok("api_error")

	_, err = payments.NewClient(env("PAYMENTS_PUBLISHABLE_KEY"))
	check(expect[payments.ConfigurationError](err).Code == "publishable_key_not_allowed", "publishable: %v", err)
	ok("publishable_key_refused")

	payload := []byte(env("WEBHOOK_PAYLOAD"))
	event := must(payments.ConstructEvent(payload, env("WEBHOOK_SIGNATURE"), env("WEBHOOK_SECRET"), 0))
	check(event.ID == "evt_fixture" && event.Type == "payment.succeeded", "event %+v", event)
	_, err = payments.ConstructEvent(append(payload, ' '), env("WEBHOOK_SIGNATURE"), env("WEBHOOK_SECRET"), 0)
	expect[payments.SignatureVerificationError](err)
	_, err = payments.ConstructEvent(payload, env("WEBHOOK_SIGNATURE"), "whsec_wrong", 0)
	expect[payments.SignatureVerificationError](err)
	check(payments.VerifySignature([]byte("{}"), payments.GenerateTestHeader([]byte("{}"), "whsec_x", time.Now()), "whsec_x", payments.DefaultTolerance) == nil, "test header")
	ok("webhook")

	proxied := must(payments.NewClient(env("PAYMENTS_SECRET_KEY"), payments.WithBaseURL(env("PAYMENTS_DROP_URL")), payments.WithMaxNetworkRetries(2)))
	dropped := must(proxied.Payments.Create(ctx, &payments.PaymentsCreateParams{
		Amount: 1500, Currency: "EUR", Customer: customer.ID, Description: payments.String("dropped once"),
	}))
	var matching []string
	all := client.Payments.ListAutoPaging(ctx, &payments.PaymentsListParams{Customer: payments.String(customer.ID), Limit: payments.Int64(100)})
	for all.Next() {
		if p := all.Current(); p.Description != nil && *p.Description == "dropped once" {
			matching = append(matching, p.ID)
		}
	}
	check(all.Err() == nil && len(matching) == 1 && matching[0] == dropped.ID, "one payment: the retry was replayed, not run again (%v)", matching)
	ok("dropped_connection_retried")
}
