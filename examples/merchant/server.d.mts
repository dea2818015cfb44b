import type { Server } from 'node:http';

export function createMerchant(options: { api: string; secretKey: string; publishableKey: string }): Server;
