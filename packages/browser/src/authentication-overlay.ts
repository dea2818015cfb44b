/**
 * Shows the card issuer's authentication page (3-D Secure; `next_action.redirect_to_url.url`)
 * in a modal frame over the current page, and resolves when that page reports the outcome.
 * Only messages from the service's origin are believed.
 */
import { FROM_FRAME, type FrameMessage } from './messages.js';

export interface AuthenticationOutcome {
  payment: string;
  status: string;
}

export function authenticateInOverlay(url: string): Promise<AuthenticationOutcome> {
  const serviceOrigin = new URL(url, location.href).origin;
  const backdrop = document.createElement('div');
  Object.assign(backdrop.style, {
    position: 'fixed',
    inset: '0',
    background: 'rgba(15, 23, 42, 0.6)',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    zIndex: '2147483647',
  });
  const frame = document.createElement('iframe');
  frame.src = url;
  frame.title = 'Authenticate your payment with your bank';
  Object.assign(frame.style, {
    width: 'min(28rem, 94vw)',
    height: 'min(26rem, 90vh)',
    border: '0',
    borderRadius: '12px',
    background: '#fff',
  });
  backdrop.setAttribute('role', 'dialog');
  backdrop.setAttribute('aria-modal', 'true');
  backdrop.setAttribute('aria-label', 'Authenticate your payment');
  backdrop.appendChild(frame);
  document.body.appendChild(backdrop);
  frame.focus();
  return new Promise((resolve) => {
    function onMessage(event: MessageEvent): void {
      const data = event.data as FrameMessage | undefined;
      if (event.origin !== serviceOrigin || data?.source !== FROM_FRAME || data.type !== 'authentication') return;
      window.removeEventListener('message', onMessage);
      backdrop.remove();
      resolve({ payment: data.payment, status: data.status });
    }
    window.addEventListener('message', onMessage);
  });
}
