// The Gems orders of decisions §8: what can be bought, the player's orders, and the USDT
// transaction of a tether order. Plain calls, never the outbox: a payment needs an answer now.
import type { OrdersPage, PaymentItemsResponse, PaymentOrder } from '@shared/api/payments';
import type { TetherTxResponse } from '@shared/api/payments-tether';
import { api } from '@/lib/api-client';

/** Enough recent orders to find the open one (the server allows only a few open at once). */
const RECENT_ORDERS = 10;

export const fetchPaymentItems = () => api<PaymentItemsResponse>('payments/items/');
export const fetchRecentOrders = () =>
  api<OrdersPage>('payments/orders/', { query: { page: 1, page_size: RECENT_ORDERS } });
export const fetchOrder = (id: number) => api<PaymentOrder>(`payments/orders/${id}/`);
export const submitTetherTx = (id: number, txHash: string) =>
  api<TetherTxResponse>(`payments/orders/${id}/tx/`, { method: 'POST', body: { tx_hash: txHash } });
