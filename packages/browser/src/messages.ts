/** The postMessage protocol between payments-js (merchant page) and the frames the service serves. */
import type { ApiErrorBody, Token } from './api.js';
import type { CardBrand } from './card.js';

export const FROM_LIBRARY = 'payments-js';
export const FROM_FRAME = 'payments-frame';

export type LibraryMessage =
  { source: typeof FROM_LIBRARY; type: 'tokenize'; id: string } | { source: typeof FROM_LIBRARY; type: 'focus' | 'clear' };

export type FrameMessage =
  | { source: typeof FROM_FRAME; type: 'ready' }
  | { source: typeof FROM_FRAME; type: 'resize'; height: number }
  | { source: typeof FROM_FRAME; type: 'change'; complete: boolean; brand: CardBrand; error: string | null }
  | { source: typeof FROM_FRAME; type: 'token'; id: string; token: Token }
  | { source: typeof FROM_FRAME; type: 'error'; id: string; error: ApiErrorBody }
  | { source: typeof FROM_FRAME; type: 'authentication'; payment: string; status: string };
