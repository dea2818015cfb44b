import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { createToken } from '../../domain/tokens/tokens.js';
import type { AppDeps } from '../deps.js';
import { runWrite } from '../render.js';
import { CreateTokenBody as CreateBody, type CreateTokenBody } from '../schemas/tokens.js';

export function registerTokenRoutes(app: FastifyInstance, { store, clock, payments }: AppDeps): void {
  app.post(
    '/v1/tokens',
    {
      schema: {
        operationId: 'tokens.create',
        summary: 'Tokenise a card',
        description:
          'Vaults the card (number encrypted at rest) and returns a single-use token, valid for 15 minutes, to pass as a payment’s `payment_method`. Publishable keys may call it. Malformed requests are 400; card data that is well-formed but wrong is 402 `card_error` naming the field (`card.number`, ...).',
        tags: ['Tokens'],
        body: CreateBody,
        response: { 200: Type.Ref('Token') },
      },
    },
    (req, reply) => runWrite(req, reply, store, clock, (tx, ctx) => createToken(tx, ctx, payments.keyring, req.body as CreateTokenBody)),
  );
}
