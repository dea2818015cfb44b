/** The test-mode authentication page (/authenticate/:id): Complete or Fail, then tell the page that framed us. */
import { FROM_FRAME } from '../messages.js';

const main = document.querySelector<HTMLElement>('main') as HTMLElement;
const { payment = '', clientSecret = '' } = main.dataset;
const status = document.getElementById('status') as HTMLElement;

async function answer(outcome: 'succeed' | 'fail'): Promise<void> {
  for (const b of document.querySelectorAll('button')) b.disabled = true;
  const res = await fetch(`/authenticate/${encodeURIComponent(payment)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_secret: clientSecret, outcome }),
  });
  const body = (await res.json()) as { status?: string; error?: { message: string } };
  status.textContent = res.ok ? `Status: ${body.status}` : `Error: ${body.error?.message}`;
  // The outcome is no secret: the page that framed us (a merchant page, the hosted checkout) reads it.
  const target = window.parent !== window ? window.parent : window.opener;
  target?.postMessage({ source: FROM_FRAME, type: 'authentication', payment, status: body.status ?? 'requires_payment_method' }, '*');
}

document.getElementById('complete')?.addEventListener('click', () => void answer('succeed'));
document.getElementById('fail')?.addEventListener('click', () => void answer('fail'));
