import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { createCustomer, deleteCustomer, listCustomers, retrieveCustomer, updateCustomer } from '../../domain/customers/customers.js';
import type { AppDeps } from '../deps.js';
import { operationContext, runWrite, sendObject } from '../render.js';
import { IdParams } from '../schemas/common.js';
import {
  CreateCustomerBody as CreateBody,
  type CreateCustomerBody,
  type ListCustomersQuery,
  ListCustomersQuery as ListQuery,
  UpdateCustomerBody as UpdateBody,
  type UpdateCustomerBody,
} from '../schemas/customers.js';

const tags = ['Customers'];
const Params = IdParams('cus');
type Params = { id: string };

export function registerCustomerRoutes(app: FastifyInstance, { store, clock }: AppDeps): void {
  app.post(
    '/v1/customers',
    {
      schema: {
        operationId: 'customers.create',
        summary: 'Create a customer',
        tags,
        body: CreateBody,
        response: { 200: Type.Ref('Customer') },
      },
    },
    (req, reply) => runWrite(req, reply, store, clock, (tx, ctx) => createCustomer(tx, ctx, req.body as CreateCustomerBody)),
  );

  app.get(
    '/v1/customers',
    {
      schema: {
        operationId: 'customers.list',
        summary: 'List customers, newest first',
        tags,
        querystring: ListQuery,
        response: { 200: Type.Ref('CustomerList') },
      },
    },
    async (req, reply) => sendObject(reply, await listCustomers(store, operationContext(req, clock), req.query as ListCustomersQuery)),
  );

  app.get(
    '/v1/customers/:id',
    {
      schema: {
        operationId: 'customers.retrieve',
        summary: 'Retrieve a customer',
        tags,
        params: Params,
        response: { 200: Type.Ref('Customer') },
      },
    },
    async (req, reply) => sendObject(reply, await retrieveCustomer(store, operationContext(req, clock), (req.params as Params).id)),
  );

  app.post(
    '/v1/customers/:id',
    {
      schema: {
        operationId: 'customers.update',
        summary: 'Update a customer',
        tags,
        params: Params,
        body: UpdateBody,
        response: { 200: Type.Ref('Customer') },
      },
    },
    (req, reply) =>
      runWrite(req, reply, store, clock, (tx, ctx) => updateCustomer(tx, ctx, (req.params as Params).id, req.body as UpdateCustomerBody)),
  );

  app.delete(
    '/v1/customers/:id',
    {
      schema: {
        operationId: 'customers.delete',
        summary: 'Delete a customer',
        tags,
        params: Params,
        response: { 200: Type.Ref('DeletedCustomer') },
      },
    },
    (req, reply) => runWrite(req, reply, store, clock, (tx, ctx) => deleteCustomer(tx, ctx, (req.params as Params).id)),
  );
}
