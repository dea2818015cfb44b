"""The Python SDK against the real service (started by python.test.ts, which passes URLs and keys
through the environment). Prints `ok <check>` per check; any failure exits non-zero."""

import os
import time
import uuid

import payments

env = os.environ
base = env["PAYMENTS_BASE_URL"]
client = payments.Client(env["PAYMENTS_SECRET_KEY"], base_url=base, api_version=payments.LATEST_API_VERSION)


def ok(name):
    print(f"ok {name}", flush=True)


def expect(error_class, call):
    try:
        call()
    except error_class as err:
        assert isinstance(err, payments.PaymentsError)
        return err
    raise AssertionError(f"expected {error_class.__name__}")


def card_token(number):
    return client.tokens.create(card={"number": number, "exp_month": 12, "exp_year": 2030, "cvc": "123"})


customer = client.customers.create(email="jenny@example.com", name="Jenny Rosen", metadata={"order": "6735"})
assert customer["id"].startswith("cus_") and customer["name"] == "Jenny Rosen"
assert client.customers.retrieve(customer["id"])["email"] == "jenny@example.com"
ok("customer")

payment = client.payments.create(
    amount=2000, currency="USD", customer=customer["id"], payment_method=card_token("4242424242424242")["id"], confirm=True
)
assert payment["status"] == "succeeded", payment["status"]
assert payment["payment_method"]["last4"] == "4242"
ok("payment")

created = [payment["id"]] + [client.payments.create(amount=100 + i, currency="EUR", customer=customer["id"])["id"] for i in range(2)]
page = client.payments.list(customer=customer["id"], limit=2)
assert len(page.data) == 2 and page.has_more and page.url == "/v1/payments"
walked = [p["id"] for p in client.payments.list(customer=customer["id"], limit=2).auto_paging_iter()]
assert walked == list(reversed(created)), walked
ok("pagination")

err = expect(payments.InvalidRequestError, lambda: client.payments.create(amount=2000, currency="usd", customer=customer["id"]))
assert err.param == "currency" and err.status_code == 400 and err.request_id.startswith("req_"), vars(err)
ok("invalid_request_error")

err = expect(payments.AuthenticationError, lambda: payments.Client(env["PAYMENTS_UNKNOWN_KEY"], base_url=base).customers.list())
assert err.status_code == 401 and err.code == "api_key_invalid", err.code
ok("authentication_error")

restricted = payments.Client(env["PAYMENTS_RESTRICTED_KEY"], base_url=base)
assert restricted.customers.retrieve(customer["id"])["id"] == customer["id"]
err = expect(payments.PermissionError, lambda: restricted.payments.create(amount=100, currency="USD", customer=customer["id"]))
assert err.status_code == 403 and err.code == "insufficient_scope", err.code
ok("permission_error")

key = f"py-{uuid.uuid4()}"
client.customers.create(name="Once", request_options={"idempotency_key": key})
err = expect(payments.IdempotencyError, lambda: client.customers.create(name="Twice", request_options={"idempotency_key": key}))
assert err.code == "idempotency_key_reused", err.code
ok("idempotency_error")

declined = card_token("4000000000000002")["id"]
err = expect(
    payments.CardError,
    lambda: client.payments.create(amount=500, currency="USD", customer=customer["id"], payment_method=declined, confirm=True),
)
assert err.status_code == 402 and err.code == "card_declined" and err.decline_code == "generic_decline", vars(err)
ok("card_error")

limited = payments.Client("service_test_stub", base_url=env["PAYMENTS_RATE_LIMIT_URL"], max_network_retries=0)
err = expect(payments.RateLimitError, limited.account.retrieve)
assert err.status_code == 429 and err.headers["retry-after"] == "0"
started = time.monotonic()
account = payments.Client("service_test_stub", base_url=env["PAYMENTS_RATE_LIMIT_URL"]).account.retrieve()
assert account["id"] == "acct_stub" and time.monotonic() - started >= 1.0, "waited for Retry-After: 1"
ok("rate_limit_error")

failing = payments.Client("service_test_stub", base_url=env["PAYMENTS_SERVER_ERROR_URL"], max_network_retries=0)
err = expect(payments.APIError, failing.account.retrieve)
assert err.status_code == 500 and err.code == "internal_error"
ok("api_error")

err = expect(payments.ConfigurationError, lambda: payments.Client(env["PAYMENTS_PUBLISHABLE_KEY"]))
assert err.code == "publishable_key_not_allowed"
ok("publishable_key_refused")

event = payments.Webhook.construct_event(env["WEBHOOK_PAYLOAD"].encode(), env["WEBHOOK_SIGNATURE"], env["WEBHOOK_SECRET"])
assert event["id"] == "evt_fixture" and event["type"] == "payment.succeeded"
expect(
    payments.SignatureVerificationError,
    lambda: payments.Webhook.construct_event(env["WEBHOOK_PAYLOAD"] + " ", env["WEBHOOK_SIGNATURE"], env["WEBHOOK_SECRET"]),
)
expect(payments.SignatureVerificationError, lambda: payments.Webhook.construct_event(env["WEBHOOK_PAYLOAD"], env["WEBHOOK_SIGNATURE"], "whsec_wrong"))
header = payments.Webhook.generate_test_header("{}", "whsec_x")
assert payments.Webhook.construct_event("{}", header, "whsec_x") == {}
ok("webhook")

through_proxy = payments.Client(env["PAYMENTS_SECRET_KEY"], base_url=env["PAYMENTS_DROP_URL"], max_network_retries=2)
dropped = through_proxy.payments.create(amount=1500, currency="EUR", customer=customer["id"], description="dropped once")
matching = [p for p in client.payments.list(customer=customer["id"], limit=100).auto_paging_iter() if p["description"] == "dropped once"]
assert [p["id"] for p in matching] == [dropped["id"]], "one payment: the retry was replayed, not run again"
ok("dropped_connection_retried")
