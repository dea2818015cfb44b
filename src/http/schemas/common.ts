import { type TSchema, Type } from '@sinclair/typebox';
import { LIST_MAX_LIMIT } from '../../domain/lists.js';
import { METADATA_KEY_MAX_LENGTH, METADATA_MAX_KEYS, METADATA_VALUE_MAX_LENGTH } from '../../domain/metadata.js';

/**
 * Building blocks for route schemas. Request schemas are inline (so validation needs no
 * reference resolution); response objects are shared components with an `$id`.
 */

/** A string free of NUL characters and unpaired surrogates (both break PostgreSQL or lose data). */
export const Text = (maxLength: number, options: Record<string, unknown> = {}) => Type.String({ maxLength, 'x-text': true, ...options });

/** A string enum as `{ type: 'string', enum: [...] }` (what OpenAPI tools and SDK generators read best). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const Metadata = Type.Object(
  {},
  {
    additionalProperties: Text(METADATA_VALUE_MAX_LENGTH),
    maxProperties: METADATA_MAX_KEYS,
    propertyNames: { minLength: 1, maxLength: METADATA_KEY_MAX_LENGTH },
    description: `Up to ${METADATA_MAX_KEYS} string keys (at most ${METADATA_KEY_MAX_LENGTH} characters) with string values (at most ${METADATA_VALUE_MAX_LENGTH}).`,
  },
);

export const MetadataUpdate = Type.Object(
  {},
  {
    additionalProperties: Nullable(Text(METADATA_VALUE_MAX_LENGTH)),
    maxProperties: METADATA_MAX_KEYS,
    propertyNames: { minLength: 1, maxLength: METADATA_KEY_MAX_LENGTH },
    description: 'Keys to set; a key set to null or "" is removed.',
  },
);

export const ObjectId = (prefix: string) => Text(255, { minLength: 1, description: `An id beginning \`${prefix}_\`.` });

export const IdParams = (prefix: string) => Type.Object({ id: ObjectId(prefix) }, { additionalProperties: false });

export const CreatedFilter = Type.Union([
  Type.Integer({ minimum: 0, description: 'Exactly this Unix time.' }),
  Type.Object(
    {
      gt: Type.Optional(Type.Integer({ minimum: 0 })),
      gte: Type.Optional(Type.Integer({ minimum: 0 })),
      lt: Type.Optional(Type.Integer({ minimum: 0 })),
      lte: Type.Optional(Type.Integer({ minimum: 0 })),
    },
    { additionalProperties: false },
  ),
]);

export const ListQueryProperties = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIST_MAX_LIMIT, default: 10, description: 'Page size, 1 to 100.' })),
  starting_after: Type.Optional(Text(255, { minLength: 1, description: 'Cursor: the id of the last object of the previous page.' })),
  ending_before: Type.Optional(Text(255, { minLength: 1, description: 'Cursor: the id of the first object of the next (newer) page.' })),
};

export const ListOf = (id: string, item: TSchema, url: string) =>
  Type.Object(
    {
      object: Type.Literal('list'),
      data: Type.Array(item),
      has_more: Type.Boolean(),
      url: Type.String({ examples: [url] }),
    },
    { $id: id, additionalProperties: false },
  );

export const ErrorObject = Type.Object(
  {
    error: Type.Object({
      type: Type.String(),
      code: Type.String(),
      message: Type.String(),
      param: Type.Optional(Type.String()),
      decline_code: Type.Optional(Type.String()),
      request_id: Type.String(),
    }),
  },
  { $id: 'Error' },
);
