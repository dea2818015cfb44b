/** The parts of an OpenAPI 3.1 document the generator reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
}

export interface ParameterObject {
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  style?: string;
  schema?: JsonSchema;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated?: boolean;
  tags?: string[];
  parameters?: ParameterObject[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: JsonSchema }> }>;
  'x-permission'?: { auth: 'none' | 'key'; resource?: string; level?: 'read' | 'write'; publishable?: boolean } | null;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OperationObject>>;
  components?: {
    schemas?: Record<string, JsonSchema>;
    parameters?: Record<string, ParameterObject>;
  };
  'x-error-types'?: string[];
  'x-error-codes'?: { code: string; type: string; status: number; description: string }[];
}

/** `#/components/schemas/Payment` → `Payment`. */
export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}
