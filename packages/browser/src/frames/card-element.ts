/** The card element: runs inside the iframe at /elements/card, on the service's origin. */
import { BrowserApi, PaymentsError } from '../api.js';
import { bindCardForm, showServerError } from '../card-form.js';
import { FROM_FRAME, FROM_LIBRARY, type FrameMessage, type LibraryMessage } from '../messages.js';

const params = new URLSearchParams(location.hash.slice(1));
const parentOrigin = params.get('origin') ?? '';
const api = new BrowserApi(params.get('key') ?? '', location.origin);
const form = bindCardForm(document);

function post(message: FrameMessage): void {
  // Only ever to the page that embedded us (its origin came in our URL), and never card data.
  window.parent.postMessage(message, parentOrigin);
}

form.onChange((check) => {
  const error = Object.values(check.errors)[0] ?? null;
  post({ source: FROM_FRAME, type: 'change', complete: check.complete, brand: check.brand, error });
});

async function tokenize(id: string): Promise<void> {
  const check = form.submit();
  if (!check.card) {
    const message = Object.values(check.errors)[0] ?? 'Your card details are incomplete.';
    post({ source: FROM_FRAME, type: 'error', id, error: { type: 'validation_error', code: 'incomplete_card', message } });
    return;
  }
  form.setDisabled(true);
  try {
    const token = await api.createToken(check.card);
    post({ source: FROM_FRAME, type: 'token', id, token });
  } catch (err) {
    const e =
      err instanceof PaymentsError
        ? err
        : new PaymentsError({ type: 'api_error', code: 'internal_error', message: 'Something went wrong.' });
    showServerError(document, e.param, e.message);
    const error = { type: e.type, code: e.code, message: e.message, ...(e.param ? { param: e.param } : {}) };
    post({ source: FROM_FRAME, type: 'error', id, error });
  } finally {
    form.setDisabled(false);
  }
}

window.addEventListener('message', (event: MessageEvent) => {
  const data = event.data as LibraryMessage | undefined;
  if (event.source !== window.parent || event.origin !== parentOrigin || data?.source !== FROM_LIBRARY) return;
  if (data.type === 'tokenize') void tokenize(data.id);
  else if (data.type === 'focus') form.focus();
  else if (data.type === 'clear') form.clear();
});

new ResizeObserver(() => post({ source: FROM_FRAME, type: 'resize', height: document.documentElement.scrollHeight })).observe(
  document.body,
);
post({ source: FROM_FRAME, type: 'ready' });
