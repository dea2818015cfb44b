/** The hosted checkout page (/checkout/:id), on the service's origin. */
import type { ApiErrorBody, CheckoutSession } from '../api.js';
import { authenticateInOverlay } from '../authentication-overlay.js';
import { bindCardForm, showServerError } from '../card-form.js';

const main = document.querySelector<HTMLElement>('main') as HTMLElement;
const { session: sessionId = '', clientSecret = '', successUrl = '' } = main.dataset;
const payForm = document.getElementById('pay-form') as HTMLFormElement;
const payButton = document.getElementById('pay') as HTMLButtonElement;
const message = document.getElementById('message') as HTMLElement;
const cardForm = bindCardForm(payForm);

function say(text: string, kind: 'error' | 'info'): void {
  message.textContent = text;
  message.dataset.kind = kind;
}

function busy(on: boolean): void {
  payButton.disabled = on;
  payButton.setAttribute('aria-busy', String(on));
  cardForm.setDisabled(on);
}

function succeeded(): void {
  say('Payment successful. Taking you back to the shop…', 'info');
  busy(true);
  location.assign(successUrl);
}

async function pay(): Promise<void> {
  const check = cardForm.submit();
  if (!check.card) {
    say('Check your card details.', 'error');
    return;
  }
  busy(true);
  say('Processing your payment…', 'info');
  const res = await fetch(`/checkout/${encodeURIComponent(sessionId)}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_secret: clientSecret, card: check.card }),
  }).catch(() => undefined);
  const body = res ? ((await res.json().catch(() => ({}))) as Partial<CheckoutSession> & { error?: ApiErrorBody }) : {};
  if (!res || body.error) {
    const error = body.error ?? {
      message: 'We could not reach the payment service. Check your connection and try again.',
      param: undefined,
    };
    busy(false);
    say(error.message, 'error');
    showServerError(payForm, error.param, error.message);
    return;
  }
  if (body.status === 'complete') return succeeded();
  const url = body.next_action?.redirect_to_url?.url;
  if (body.payment_status === 'requires_action' && url) {
    say('Your bank asks you to confirm this payment.', 'info');
    const outcome = await authenticateInOverlay(url);
    if (outcome.status === 'succeeded' || outcome.status === 'requires_capture') return succeeded();
    busy(false);
    say('Your bank could not confirm this payment. Try again or use another card.', 'error');
    cardForm.focus();
    return;
  }
  busy(false);
  say('This payment could not be completed. Try another card.', 'error');
}

payForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void pay();
});
