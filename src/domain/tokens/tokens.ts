import { ApiError, resourceMissing } from '../../errors/api-error.js';
import { newId } from '../../lib/ids.js';
import type { CardRecord, CardSummary, TokenRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { type OperationContext, seconds } from '../context.js';
import type { CardDetails } from '../processor/connector.js';
import { type CardInput, fundingOf, validateCard } from './card-rules.js';
import { type CardKeyring, fingerprint, open, seal } from './keyring.js';

/** Contract section 10: a token lives 15 minutes unused, and is used once. */
export const TOKEN_LIFETIME_SECONDS = 15 * 60;

export interface CardObject extends CardSummary {
  id: string;
  object: 'card';
}

export interface TokenObject {
  id: string;
  object: 'token';
  type: 'card';
  card: CardObject;
  created: number;
  expires_at: number;
  livemode: boolean;
  used: boolean;
}

export function cardSummary(card: CardRecord): CardSummary {
  return {
    brand: card.brand,
    last4: card.last4,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    funding: card.funding,
    fingerprint: card.fingerprint,
  };
}

function presentToken(token: TokenRecord, card: CardRecord): TokenObject {
  return {
    id: token.id,
    object: 'token',
    type: 'card',
    card: { id: card.id, object: 'card', ...cardSummary(card) },
    created: token.created,
    expires_at: token.expiresAt,
    livemode: token.livemode,
    used: token.usedAt !== null,
  };
}

/** Validates the card, seals its number in the vault and issues a single-use token for it. */
export async function createToken(
  store: Store,
  ctx: OperationContext,
  keyring: CardKeyring,
  input: { card: CardInput },
): Promise<TokenObject> {
  const valid = validateCard(input.card, ctx.nowMs);
  const created = seconds(ctx.nowMs);
  const cardId = newId('card', ctx.nowMs);
  const card: CardRecord = {
    id: cardId,
    accountId: ctx.scope.accountId,
    livemode: ctx.scope.livemode,
    brand: valid.brand,
    last4: valid.last4,
    expMonth: valid.expMonth,
    expYear: valid.expYear,
    funding: fundingOf(valid.brand),
    fingerprint: fingerprint(keyring, ctx.scope.accountId, valid.number),
    numberSealed: seal(keyring, valid.number, cardId),
    created,
  };
  const tokenId = newId('tok', ctx.nowMs);
  const token: TokenRecord = {
    id: tokenId,
    accountId: ctx.scope.accountId,
    livemode: ctx.scope.livemode,
    cardId,
    cvcSealed: valid.cvc === null ? null : seal(keyring, valid.cvc, tokenId),
    created,
    expiresAt: created + TOKEN_LIFETIME_SECONDS,
    usedAt: null,
  };
  await store.insertCard(card);
  await store.insertToken(token);
  return presentToken(token, card);
}

/**
 * Uses a token for a payment (`payment_method`): it must exist in this account and mode, be
 * unused and unexpired. Marks it used; the caller's transaction makes that stick.
 */
export async function useToken(store: Store, ctx: OperationContext, tokenId: string): Promise<CardRecord> {
  const token = await store.findTokenById(ctx.scope, tokenId, { forUpdate: true });
  if (!token) {
    if (await store.objectExistsInOtherMode(ctx.scope, 'tokens', tokenId)) {
      throw new ApiError(
        'livemode_mismatch',
        `The token '${tokenId}' was created in ${ctx.scope.livemode ? 'test' : 'live'} mode; this key is for ${ctx.scope.livemode ? 'live' : 'test'} mode.`,
        { param: 'payment_method' },
      );
    }
    throw resourceMissing('token', tokenId, 'payment_method', true);
  }
  if (token.usedAt !== null) {
    throw new ApiError('token_already_used', `The token '${tokenId}' was already used. Tokens are single-use.`, {
      param: 'payment_method',
    });
  }
  if (token.expiresAt <= seconds(ctx.nowMs)) {
    throw new ApiError('token_expired', `The token '${tokenId}' expired. Tokens are valid for 15 minutes.`, { param: 'payment_method' });
  }
  const card = await store.findCardById(ctx.scope, token.cardId);
  if (!card) throw new Error(`token ${tokenId} names a missing card`);
  if (!(await store.consumeToken(ctx.scope, tokenId, seconds(ctx.nowMs)))) {
    throw new ApiError('token_already_used', `The token '${tokenId}' was already used. Tokens are single-use.`, {
      param: 'payment_method',
    });
  }
  return card;
}

/**
 * The card's details for one authorisation. The CVC is read and erased in the same step, so it
 * is never kept past the confirmation that used it.
 */
export async function takeCardForAuthorization(
  store: Store,
  ctx: OperationContext,
  keyring: CardKeyring,
  cardId: string,
): Promise<CardDetails> {
  const card = await store.findCardById(ctx.scope, cardId);
  if (!card) throw new Error(`payment names a missing card ${cardId}`);
  const token = await store.findTokenByCardId(cardId);
  let cvc: string | null = null;
  if (token?.cvcSealed) {
    cvc = open(keyring, token.cvcSealed, token.id);
    await store.eraseTokenCvc(token.id);
  }
  return { number: open(keyring, card.numberSealed, card.id), expMonth: card.expMonth, expYear: card.expYear, cvc };
}

/** Re-seals cards under the current key after a rotation; answers how many it re-sealed. */
export async function rewrapCards(store: Store, keyring: CardKeyring, batch = 100): Promise<number> {
  let total = 0;
  for (;;) {
    const cards = await store.listCardsNotSealedWith(keyring.current.version, batch);
    if (cards.length === 0) return total;
    for (const card of cards) {
      await store.updateCardSealedNumber(card.id, seal(keyring, open(keyring, card.numberSealed, card.id), card.id));
    }
    total += cards.length;
  }
}
