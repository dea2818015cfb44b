// The Java SDK against the real service (started by java.test.ts, which passes URLs and keys through
// the environment). Prints `ok <check>` per check; any failure exits non-zero.
import com.paymentsservice.sdk.*;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

public class SdkTest {
  static String env(String name) {
    return System.getenv(name);
  }

  static void check(boolean condition, String what) {
    if (!condition) throw new AssertionError(what);
  }

  static void ok(String name) {
    System.out.println("ok " + name);
  }

  static <E extends PaymentsError> E expect(Class<E> type, Runnable call) {
    try {
      call.run();
    } catch (PaymentsError e) {
      if (type.isInstance(e)) return type.cast(e);
      throw new AssertionError("expected " + type.getSimpleName() + ", got " + e.getClass().getSimpleName() + ": " + e.getMessage(), e);
    }
    throw new AssertionError("expected " + type.getSimpleName());
  }

  public static void main(String[] args) {
    String base = env("PAYMENTS_BASE_URL");
    PaymentsClient client = PaymentsClient.builder(env("PAYMENTS_SECRET_KEY")).baseUrl(base).apiVersion(Version.LATEST_API_VERSION).build();
    java.util.function.Function<String, String> token = number -> client.tokens()
        .create(TokensCreateParams.builder().card(TokensCreateParamsCard.builder().number(number).expMonth(12).expYear(2030).cvc("123").build()).build())
        .id();

    Customer customer = client.customers().create(
        CustomersCreateParams.builder().email("jenny@example.com").name("Jenny Rosen").metadata(Map.of("order", "6735")).build());
    check(customer.id().startsWith("cus_") && "Jenny Rosen".equals(customer.name()), "customer");
    check(client.customers().retrieve(customer.id()).email().equals("jenny@example.com"), "retrieve customer");
    ok("customer");

    Payment payment = client.payments().create(PaymentsCreateParams.builder()
        .amount(2000).currency("USD").customer(customer.id()).paymentMethod(token.apply("4242424242424242")).confirm(true).build());
    check(payment.status().equals("succeeded"), "status " + payment.status());
    check(payment.paymentMethod().last4().equals("4242"), "card summary");
    ok("payment");

    List<String> created = new ArrayList<>(List.of(payment.id()));
    for (int i = 0; i < 2; i++) {
      created.add(client.payments().create(PaymentsCreateParams.builder().amount(100 + i).currency("EUR").customer(customer.id()).build()).id());
    }
    Page<Payment> page = client.payments().list(PaymentsListParams.builder().customer(customer.id()).limit(2L).build());
    check(page.data().size() == 2 && page.hasMore() && page.url().equals("/v1/payments"), "first page");
    List<String> walked = new ArrayList<>();
    for (Payment p : client.payments().list(PaymentsListParams.builder().customer(customer.id()).limit(2L).build()).autoPaging()) walked.add(p.id());
    check(walked.equals(List.of(created.get(2), created.get(1), created.get(0))), "walked " + walked);
    ok("pagination");

    InvalidRequestError invalid = expect(InvalidRequestError.class,
        () -> client.payments().create(PaymentsCreateParams.builder().amount(2000).currency("usd").customer(customer.id()).build()));
    check("currency".equals(invalid.getParam()) && invalid.getStatusCode() == 400 && invalid.getRequestId().startsWith("req_"), "invalid request");
    ok("invalid_request_error");

    PaymentsClient unknown = PaymentsClient.builder(env("PAYMENTS_UNKNOWN_KEY")).baseUrl(base).build();
    check(expect(AuthenticationError.class, () -> unknown.customers().list()).getCode().equals("api_key_invalid"), "authentication");
    ok("authentication_error");

    PaymentsClient restricted = PaymentsClient.builder(env("PAYMENTS_RESTRICTED_KEY")).baseUrl(base).build();
    restricted.customers().retrieve(customer.id());
    PermissionError permission = expect(PermissionError.class,
        () -> restricted.payments().create(PaymentsCreateParams.builder().amount(100).currency("USD").customer(customer.id()).build()));
    check(permission.getCode().equals("insufficient_scope"), "permission");
    ok("permission_error");

    RequestOptions keyed = RequestOptions.builder().idempotencyKey("java-" + System.nanoTime()).build();
    client.customers().create(CustomersCreateParams.builder().name("Once").build(), keyed);
    IdempotencyError reused = expect(IdempotencyError.class,
        () -> client.customers().create(CustomersCreateParams.builder().name("Twice").build(), keyed));
    check(reused.getCode().equals("idempotency_key_reused"), "idempotency");
    ok("idempotency_error");

    String declined = token.apply("4000000000000002");
    CardError card = expect(CardError.class, () -> client.payments().create(PaymentsCreateParams.builder()
        .amount(500).currency("USD").customer(customer.id()).paymentMethod(declined).confirm(true).build()));
    check(card.getStatusCode() == 402 && card.getCode().equals("card_declined") && "generic_decline".equals(card.getDeclineCode()), "card");
    ok("card_error");

    PaymentsClient limited = PaymentsClient.builder("service_test_stub").baseUrl(env("PAYMENTS_RATE_LIMIT_URL")).maxNetworkRetries(0).build();
    RateLimitError rate = expect(RateLimitError.class, () -> limited.account().retrieve());
    check(rate.getStatusCode() == 429 && "0".equals(rate.getHeader("Retry-After")), "rate limit");
    long started = System.nanoTime();
    Account account = PaymentsClient.builder("service_test_stub").baseUrl(env("PAYMENTS_RATE_LIMIT_URL")).build().account().retrieve();
    check(account.id().equals("acct_stub") && Duration.ofNanos(System.nanoTime() - started).toMillis() >= 1000, "waited for Retry-After: 1");
    ok("rate_limit_error");

    PaymentsClient failing = PaymentsClient.builder("service_test_stub").baseUrl(env("PAYMENTS_SERVER_ERROR_URL")).maxNetworkRetries(0).build();
    APIError api = expect(APIError.class, () -> failing.account().retrieve());
    check(api.getStatusCode() == 500 && api.getCode().equals("internal_error"), "api error");
    ok("api_error");

    ConfigurationError refused = expect(ConfigurationError.class, () -> PaymentsClient.builder(env("PAYMENTS_PUBLISHABLE_KEY")).build());
    check(refused.getCode().equals("publishable_key_not_allowed"), "publishable");
    ok("publishable_key_refused");

    String payload = env("WEBHOOK_PAYLOAD");
    Event event = PaymentsClient.constructEvent(payload, env("WEBHOOK_SIGNATURE"), env("WEBHOOK_SECRET"));
    check(event.id().equals("evt_fixture") && event.type().equals("payment.succeeded"), "event");
    expect(SignatureVerificationError.class, () -> PaymentsClient.constructEvent(payload + " ", env("WEBHOOK_SIGNATURE"), env("WEBHOOK_SECRET")));
    expect(SignatureVerificationError.class, () -> PaymentsClient.constructEvent(payload, env("WEBHOOK_SIGNATURE"), "whsec_wrong"));
    Webhook.verifySignature("{}", Webhook.generateTestHeader("{}", "whsec_x", Instant.now()), "whsec_x", Webhook.DEFAULT_TOLERANCE);
    ok("webhook");

    PaymentsClient proxied = PaymentsClient.builder(env("PAYMENTS_SECRET_KEY")).baseUrl(env("PAYMENTS_DROP_URL")).maxNetworkRetries(2).build();
    Payment dropped = proxied.payments().create(
        PaymentsCreateParams.builder().amount(1500).currency("EUR").customer(customer.id()).description("dropped once").build());
    List<String> matching = new ArrayList<>();
    for (Payment p : client.payments().list(PaymentsListParams.builder().customer(customer.id()).limit(100L).build()).autoPaging()) {
      if ("dropped once".equals(p.description())) matching.add(p.id());
    }
    check(matching.equals(List.of(dropped.id())), "one payment: the retry was replayed, not run again " + matching);
    ok("dropped_connection_retried");
  }
}
