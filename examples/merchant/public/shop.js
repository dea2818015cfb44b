/* global document, fetch */
// The merchant's page script. It never sees the card number: the card element is an iframe on
// the payment service's origin, and confirmPayment gets back a payment, not card data.
const config = await (await fetch('/config.json')).json();
const { Payments } = await import(`${config.api}/js/payments.js`);
const payments = Payments(config.publishableKey);

const card = payments.elements().create('card');
card.mount('#card-element');

const result = document.getElementById('card-result');
const payButton = document.getElementById('pay-card');
const show = (text, kind) => {
  result.textContent = text;
  result.dataset.kind = kind;
};

document.getElementById('card-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  payButton.disabled = true;
  show('Paying…', 'info');
  const { client_secret } = await (await fetch('/create-payment', { method: 'POST' })).json();
  const { payment, error } = await payments.confirmPayment(client_secret, { element: card });
  payButton.disabled = false;
  if (error) show(error.message, 'error');
  else show(`Payment ${payment.status}: ${payment.id}`, payment.status === 'succeeded' ? 'success' : 'info');
});

document.getElementById('pay-hosted').addEventListener('click', async () => {
  const { url } = await (await fetch('/create-checkout-session', { method: 'POST' })).json();
  payments.redirectToCheckout({ url });
});
